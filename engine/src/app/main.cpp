#include "app/player.h"
#include "paper/library.h"
#include "paper/startup.h"

int main(int argc, char** argv) {
    paper::traceFatalSignals("paperdoll");
    return paper::finishProcess(paper::playerMain(argc, argv));
}
