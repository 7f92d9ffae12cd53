#include "KernelTestUtil.h"
