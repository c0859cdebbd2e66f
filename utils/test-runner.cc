// SPDX-License-Identifier: GPL-2.0-only
// The test-runner of ns-3 (utils/test-runner.cc): runs the TestSuites linked into it.
#include "ns3/test.h"

int
main(int argc, char** argv)
{
    return ns3::TestRunner::Run(argc, argv);
}
