#include "app/editor_app.h"
#include "paper/library.h"
#include "paper/startup.h"

int main(int argc, char** argv) {
    paper::traceFatalSignals("paperdoll_editor");
    return paper::finishProcess(paper::editor::editorMain(argc, argv));
}
