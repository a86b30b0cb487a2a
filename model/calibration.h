// SPDX-License-Identifier: MIT
// Fabric calibration from nccl-tests (and rccl-tests) output: parse the standard table, fit
// latency and bandwidth per tier by least squares, and report residuals.
#pragma once

#include "collectives.h"

#include <string>
#include <vector>

namespace ts {

struct NcclSample
{
    double bytes = 0;
    double seconds = 0;          // mean of out-of-place and in-place times when both are given
    double busBytesPerSecond = 0;  // as printed (busbw), for the plot
};

struct NcclLog
{
    std::string source;          // file name, for messages
    Collective collective = Collective::AllReduce;
    bool collectiveKnown = false;
    int ranks = 0;               // from "Rank" lines or nGpus x nThread
    int hosts = 0;               // distinct hosts in the "Rank ... on HOST" lines
    std::vector<NcclSample> samples;
};

struct ParseError
{
    int line = 0;                // 1-based, 0 when not tied to a line
    std::string message;
};

/// Parses one log. Comment lines (#), NCCL INFO/WARN lines and blank lines are skipped; the
/// collective comes from "Collective test starting: X", the binary name in the text, or `hint`.
bool parseNcclLog(const std::string &text, const std::string &source, NcclLog *log, ParseError *error,
                  const std::string &hint = {});

/// Name in nccl-tests binaries ("all_reduce", "all_gather", ...), or false.
bool collectiveFromName(const std::string &name, Collective *collective);

struct TierFit
{
    std::string tier;            // "intra_node" (one host) or "inter_node"
    std::string source;
    Collective collective = Collective::AllReduce;
    int ranks = 0;
    int points = 0;
    double latencySeconds = 0;           // alpha per algorithm step
    double bandwidthBytesPerSecond = 0;  // achievable bus bandwidth per GPU per direction
    double rmsRelativeResidual = 0;
    double maxRelativeResidual = 0;
    std::vector<double> fittedSeconds;   // per sample, for measured-vs-fitted plots
    std::string error;
};

/// Fits t = steps * alpha + factor * S / beta (ring algorithm steps; nccl-tests bus factor) by
/// least squares on relative error, so that small and large messages weigh alike.
TierFit fitTier(const NcclLog &log);

/// Uses a fit as the cluster's link for its tier: the fit is an achievable per-GPU bandwidth, so
/// efficiency becomes 1, and for the inter-node tier every GPU has its own NIC share (rails = GPUs
/// per node, no oversubscription) because the measurement already includes them.
void applyFit(Cluster &cluster, const TierFit &fit);

} // namespace ts
