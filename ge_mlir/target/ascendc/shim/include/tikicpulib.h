// Host code written for tikicpulib includes this under ASCENDC_CPU_DEBUG; the shim's launcher lives in
// kernel_operator.h.
#pragma once

#include "kernel_operator.h"
