// SPDX-License-Identifier: GPL-2.0-only
// Placeholder replaced below
#include "ns3/clusternet-module.h"
#include "ns3/test.h"
