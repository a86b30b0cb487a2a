// SPDX-License-Identifier: MIT
// Display formatting at the edge: SI values in, human units out. Where GB and GiB may be
// confused both are shown.
#pragma once

#include <QString>

namespace ts { struct Plan; struct Workload; }

namespace ts::fmt {

QString seconds(double seconds);              // "493.5 ms", "1.17 ms", "12.3 us", "4.2 days"
QString bytes(double bytes);                  // "14.0 GB (13.04 GiB)"
QString bytesDecimal(double bytes);           // "14.0 GB"
QString memory(double bytes);                 // GPU memory in the cards' unit: "13.04 GiB", "512.0 MiB"
QString bandwidth(double bytesPerSecond);     // "50.0 GB/s (400 Gb/s)"
QString flops(double flopsPerSecond);         // "989 TFLOP/s"
QString percent(double fraction, int decimals = 1);
/// MFU as a percentage, or "n/a" where the compute time is given rather than computed (no FLOP
/// rate is defined then: a given time says nothing of the FLOPs it ran).
QString mfu(double fraction, bool applicable);
QString count(double value);                  // "7.00B", "1.3T", "512"
QString duration(double seconds);             // long spans: "35.2 days"
QString energy(double joules);                // "5.97 GWh", "820 MWh", "3.2 kWh"
// A plan's choices in the plan tables' words.
QString schedule(const Plan &plan);           // "1f1b", "interleaved v=8"
QString pipelineSplit(const Plan &plan);      // "even", "7..7" / "7..·" (first..last stage layers), "emb+loss", "-" without PP
QString overlaps(const Plan &plan);           // "TP+DP", "DP", "TP", "TP+EP+DP" (expert all-to-alls), "none"
QString contextParallel(const Plan &plan);    // CP degree, with how K/V move when not the ring: "4", "4 a2a", "4 allgather"
QString sharding(const Plan &plan);           // ZeRO stage, with the shard group of hybrid sharding: "3", "3 in 8"
// A model's shape: "80 layers, hidden 8192, 64 heads (8 KV), FFN 28672 (swiglu), vocab 128256, sequence 8192";
// heads of a width decoupled from hidden / heads say it: "64 heads of 128 (8 KV), QK norm".
QString workloadShape(const Workload &workload);

} // namespace ts::fmt
