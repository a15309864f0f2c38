// Everything is in include/JSONModelKitUTF8.h, inline; a C target needs one source file.
#include "JSONModelKitUTF8.h"
