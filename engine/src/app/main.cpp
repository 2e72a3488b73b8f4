#include "app/player.h"
#include "paper/library.h"

int main(int argc, char** argv) { return paper::finishProcess(paper::playerMain(argc, argv)); }
