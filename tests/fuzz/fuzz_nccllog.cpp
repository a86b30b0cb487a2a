// SPDX-License-Identifier: MIT
// libFuzzer target: any text as an nccl-tests log must parse or say which line is wrong; a log
// that parses must fit (or say why) with finite numbers.
#include "calibration.h"

#include <cmath>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string text(reinterpret_cast<const char *>(data), size);
    ts::NcclLog log;
    ts::ParseError error;
    if (!ts::parseNcclLog(text, "fuzz.log", &log, &error, "all_reduce")) {
        if (error.message.empty())
            std::abort();
        return 0;
    }
    const ts::TierFit fit = ts::fitTier(log);
    if (fit.error.empty() && !(std::isfinite(fit.latencySeconds) && std::isfinite(fit.bandwidthBytesPerSecond)
                               && fit.bandwidthBytesPerSecond > 0 && fit.latencySeconds >= 0))
        std::abort();
    return 0;
}
