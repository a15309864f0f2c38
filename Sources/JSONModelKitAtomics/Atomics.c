// Everything is in include/JSONModelKitAtomics.h, inline; a C target needs one source file.
#include "JSONModelKitAtomics.h"
