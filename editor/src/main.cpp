#include "app/editor_app.h"
#include "paper/library.h"

int main(int argc, char** argv) { return paper::finishProcess(paper::editor::editorMain(argc, argv)); }
