#include "platform/leak_check.h"

#ifdef PAPERDOLL_LSAN
#include <dlfcn.h>
#include <link.h>
#endif

namespace paper {

void keepLibrariesMappedForLeakCheck() {
#ifdef PAPERDOLL_LSAN
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void*) {
            // RTLD_NOLOAD only takes another reference; RTLD_NODELETE makes dlclose keep it.
            if (info->dlpi_name && *info->dlpi_name) dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
            return 0;
        },
        nullptr);
#endif
}

}  // namespace paper
