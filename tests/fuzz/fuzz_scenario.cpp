// SPDX-License-Identifier: MIT
// libFuzzer target: any bytes as a scenario file must give a scenario or a message, never a
// crash; a scenario that parses must evaluate without crashing and without NaN.
#include "evaluate.h"
#include "scenarioio.h"

#include <cmath>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    ts::ScenarioError error;
    const auto loaded = ts::parseScenario(bytes, &error);
    if (!loaded) {
        if (error.message.isEmpty())
            std::abort();   // every rejection says why
        return 0;
    }
    const ts::Evaluation e = ts::evaluate(loaded->scenario);
    if (e.feasible && !std::isfinite(e.breakdown.stepSeconds))
        std::abort();
    if (!e.feasible && e.problem.message.empty())
        std::abort();
    return 0;
}
