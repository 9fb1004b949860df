// Header only (include/PerfKitShimEntryPoints.h): SwiftPM needs a source file for a C target.
#include "PerfKitShimEntryPoints.h"
