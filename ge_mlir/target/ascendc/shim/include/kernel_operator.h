// Clean-room CPU shim of the Ascend C kernel API subset used by ge-mlir's generated kernels.
// See ../README.md for what is modelled and what is not.
#pragma once

#include "ge_shim/base.h"
#include "ge_shim/runtime.h"
#include "ge_shim/tensor.h"
#include "ge_shim/tpipe.h"
#include "ge_shim/data_copy.h"
#include "ge_shim/vector.h"
#include "ge_shim/cube.h"
#include "ge_shim/sync.h"
#include "ge_shim/launch.h"
