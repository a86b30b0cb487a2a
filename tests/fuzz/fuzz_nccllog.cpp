// SPDX-License-Identifier: MIT
// libFuzzer target: any text as an nccl-tests log must parse or say which line is wrong; a log
// that parses must fit (or say why) with finite numbers.
#include "calibration.h"

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string text(reinterpret_cast<const char *>(data), size);
    std::vector<ts::NcclLog> logs;
    ts::ParseError error;
    if (!ts::parseNcclLogs(text, "fuzz.log", &logs, &error, "all_reduce")) {
        if (error.message.empty())
            std::abort();
        for (char ch : error.message)   // never echo raw bytes to a terminal
            if (static_cast<unsigned char>(ch) < 32 || static_cast<unsigned char>(ch) >= 127)
                std::abort();
        return 0;
    }
    ts::Cluster cluster;   // the model's default cluster: 8 GPUs per node
    for (const ts::NcclLog &log : logs) {
        const ts::TierFit fit = ts::fitTier(log, cluster);
        if (fit.error.empty()
            && !(std::isfinite(fit.latencySeconds) && std::isfinite(fit.linkBytesPerSecond) && fit.linkBytesPerSecond > 0
                 && fit.latencySeconds >= 0 && fit.linkBytesPerSecond <= fit.lineRateBytesPerSecond * (1 + 1e-9)))
            std::abort();
    }
    return 0;
}
