#include "support/Diagnostics.h"
