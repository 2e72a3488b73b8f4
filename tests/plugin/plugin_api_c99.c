/* The plugin ABI as a C99 compiler sees it: the header compiles, and a plugin's table can be
   written in C with designated initialisers (the functions here are stand-ins). */
#include "paper/plugin_api.h"

static void destroy(PaperPluginInstance* instance) { (void)instance; }

const PaperPluginApi paperC99Table = {
    .abiVersion = PAPER_PLUGIN_ABI_VERSION,
    .structSize = sizeof(PaperPluginApi),
    .name = "c99",
    .version = "1.0",
    .commands = NULL,
    .destroy = destroy,
};
