#include "app/player.h"

int main(int argc, char** argv) { return paper::playerMain(argc, argv); }
