#include "app/editor_app.h"

int main(int argc, char** argv) { return paper::editor::editorMain(argc, argv); }
