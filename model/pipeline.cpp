// SPDX-License-Identifier: MIT
#include "pipeline.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>

namespace ts {

namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();
constexpr long long kMaxSimulatedOps = 4'000'000;   // p * m * v bound for simulatePipeline

struct OpRef
{
    PipelineOp op;
    int chunk;
    int microBatch;
    bool inputOnly = false;     // a backward that leaves its weight gradient to a later W (zero bubble)
    bool pairWithNext = false;  // a forward run with the backward after it as one overlapped pair
};

// DualPipeV (deepseek-ai/DualPipe dualpipe/dualpipev.py DualPipeV.step; PyTorch's
// ScheduleDualPipeV): p ranks hold the 2p stages in a V, rank s stage s (chunk 0, on the way down)
// and stage 2p-1-s (chunk 1, on the way back), so rank 0 holds the first and the last stage. Its
// eight steps, with the weight gradients of the zero-bubble backwards queued and run in order.
std::vector<OpRef> dualPipeVOrder(int p, int m, int r)
{
    std::vector<OpRef> order;
    int nextF[2] = {0, 0}, nextB[2] = {0, 0};
    std::vector<OpRef> weights;   // FIFO of deferred W (WeightGradStore)
    size_t nextW = 0;
    // paired: run with the backward after it as one overlapped pair (_forward_backward_chunk)
    const auto F = [&](int c, bool paired = false) { order.push_back({PipelineOp::Forward, c, nextF[c]++, false, paired}); };
    const auto B = [&](int c, bool zeroBubble) {
        order.push_back({PipelineOp::Backward, c, nextB[c], zeroBubble});
        if (zeroBubble)
            weights.push_back({PipelineOp::WeightGrad, c, nextB[c]});
        ++nextB[c];
    };
    const auto W = [&] { order.push_back(weights[nextW++]); };
    for (int i = 0; i < 2 * (p - r - 1); ++i)   // 1: nF0
        F(0);
    for (int i = 0; i < r + 1; ++i) {           // 2: nF0F1
        F(0);
        F(1);
    }
    for (int i = 0; i < p - r - 1; ++i) {       // 3: nB1W1F1
        B(1, true);
        W();
        F(1);
    }
    for (int i = 0; i < m - 2 * p + r + 1; ++i) {   // 4: nF0B1F1B0, two overlapped pairs
        F(0, !(i == 0 && r == p - 1));                  // (the last rank's first pair is not overlapped)
        B(1, false);
        F(1, true);
        B(0, false);
    }
    for (int i = 0; i < p - r - 1; ++i) {       // 5: nB1F1B0
        B(1, false);
        F(1, true);
        B(0, false);
    }
    bool zeroBubble = false;                    // 6: nB1B0, the second half zero-bubble
    for (int i = 0; i < r + 1; ++i) {
        if (i == (r + 1) / 2 && r % 2 == 1)
            zeroBubble = true;
        B(1, zeroBubble);
        if (i == (r + 1) / 2 && r % 2 == 0)
            zeroBubble = true;
        B(0, zeroBubble);
    }
    for (int i = 0; i < p - r - 1; ++i) {       // 7: nWB0
        W();
        B(0, true);
    }
    while (nextW < weights.size())              // 8: nW
        W();
    return order;
}

// Static per-stage orders (Megatron-LM schedules.py).
std::vector<OpRef> staticOrder(Schedule schedule, int p, int m, int v, int s)
{
    if (schedule == Schedule::DualPipeV) {
        if (p > 1)
            return dualPipeVOrder(p, m, s);
        schedule = Schedule::OneFOneB;   // one rank: nothing to pipeline
    }
    std::vector<OpRef> order;
    switch (schedule) {
    case Schedule::GPipe:
        for (int j = 0; j < m; ++j)
            order.push_back({PipelineOp::Forward, 0, j});
        for (int j = 0; j < m; ++j)
            order.push_back({PipelineOp::Backward, 0, j});
        break;
    case Schedule::OneFOneB: {
        const int warmup = std::min(p - 1 - s, m);
        for (int j = 0; j < warmup; ++j)
            order.push_back({PipelineOp::Forward, 0, j});
        for (int i = 0; i < m - warmup; ++i) {
            order.push_back({PipelineOp::Forward, 0, warmup + i});
            order.push_back({PipelineOp::Backward, 0, i});
        }
        for (int j = m - warmup; j < m; ++j)
            order.push_back({PipelineOp::Backward, 0, j});
        break;
    }
    case Schedule::Interleaved: {
        // Forward op k works on chunk (k mod pv) / p of micro-batch (k / pv) p + k mod p;
        // backward op k on chunk v-1-(k mod pv)/p. Warm-up: 2(p-s-1) + (v-1) p forwards.
        const int total = m * v;
        const int warmup = std::min(total, 2 * (p - s - 1) + (v - 1) * p);
        auto ref = [&](PipelineOp op, int k) {
            const int group = k % (p * v);
            const int chunk = op == PipelineOp::Forward ? group / p : v - 1 - group / p;
            return OpRef{op, chunk, (k / (p * v)) * p + k % p};
        };
        for (int k = 0; k < warmup; ++k)
            order.push_back(ref(PipelineOp::Forward, k));
        for (int k = 0; k < total - warmup; ++k) {
            order.push_back(ref(PipelineOp::Forward, warmup + k));
            order.push_back(ref(PipelineOp::Backward, k));
        }
        for (int k = total - warmup; k < total; ++k)
            order.push_back(ref(PipelineOp::Backward, k));
        break;
    }
    case Schedule::ZeroBubbleH1:
        break;   // decided at run time, see pickZeroBubble
    case Schedule::DualPipeV:
        break;   // above
    }
    return order;
}

} // namespace

std::string pipelineProblem(Schedule schedule, int p, long long m, int v)
{
    if (p < 1)
        return "pipeline stages must be at least 1";
    if (m < 1)
        return "micro-batches must be at least 1";
    if (schedule == Schedule::Interleaved) {
        if (v < 1)
            return "virtual stages must be at least 1";
        if (p > 1 && m % p != 0)
            return "the interleaved schedule needs micro-batches to be a multiple of the pipeline stages";
    }
    if (schedule == Schedule::DualPipeV && p > 1 && m < 2LL * p)
        return "DualPipeV needs at least twice as many micro-batches as pipeline ranks";
    return {};
}

PipelineSimulation simulatePipeline(Schedule schedule, int p, int m, int vIn, const StageTimes &t)
{
    return simulatePipeline(schedule, p, m, vIn, std::vector<StageTimes>(size_t(std::max(p, 1)), t));
}

PipelineSimulation simulatePipeline(Schedule schedule, int p, int m, int vIn, const std::vector<StageTimes> &perStage)
{
    PipelineSimulation sim;
    const bool vShape = schedule == Schedule::DualPipeV && p > 1;
    const int v = schedule == Schedule::Interleaved ? vIn : vShape ? 2 : 1;
    if (std::string problem = pipelineProblem(schedule, p, m, v); !problem.empty()) {
        sim.error = problem;
        return sim;
    }
    if (double(p) * m * v > double(kMaxSimulatedOps)) {
        sim.error = "schedule too large to simulate (stages x micro-batches x chunks above 4 million)";
        return sim;
    }
    if (perStage.size() != size_t(p)) {
        sim.error = "one set of stage times per stage is needed";
        return sim;
    }
    const bool splitW = schedule == Schedule::ZeroBubbleH1;
    std::vector<double> durF(static_cast<size_t>(p)), durB(static_cast<size_t>(p)), durW(static_cast<size_t>(p));
    for (int s = 0; s < p; ++s) {
        const StageTimes &t = perStage[size_t(s)];
        if (!(t.forwardSeconds >= 0) || !(t.backwardSeconds >= 0) || !(t.weightGradSeconds >= 0)
            || !(t.p2pSeconds >= 0) || t.weightGradSeconds > t.backwardSeconds || !std::isfinite(t.forwardSeconds + t.backwardSeconds + t.p2pSeconds)
            || !(t.firstChunkShare >= 0 && t.firstChunkShare < 1)) {
            sim.error = "stage times must be finite, non-negative, and W no longer than B (a first-chunk share in [0, 1))";
            return sim;
        }
        durF[size_t(s)] = t.forwardSeconds / v;
        durB[size_t(s)] = (splitW ? t.backwardSeconds - t.weightGradSeconds : t.backwardSeconds) / v;
        durW[size_t(s)] = t.weightGradSeconds / v;
    }
    // Stage s's p2pSeconds is its boundary to stage s + 1 (the last stage's: the wrap back to the
    // first), so a pipeline whose stages share nodes sends over NVLink and the network in turn.
    auto boundary = [&](int s) { return p > 1 ? perStage[size_t(s)].p2pSeconds : 0.0; };

    const size_t cells = size_t(p) * v * m;
    auto idx = [&](int chunk, int stage, int mb) { return (size_t(chunk) * p + stage) * m + mb; };
    std::vector<double> fReady(cells, kNever), bReady(cells, kNever), fEnd(cells, kNever);
    for (int j = 0; j < m; ++j)
        fReady[idx(0, 0, j)] = 0;

    std::vector<std::vector<OpRef>> orders(p);
    std::vector<size_t> position(p, 0);
    for (int s = 0; s < p; ++s)
        orders[s] = staticOrder(schedule, p, m, v, s);
    // Zero-bubble bookkeeping: next F, next B, next W micro-batch per stage.
    std::vector<int> nextF(p, 0), nextB(p, 0), nextW(p, 0);
    std::vector<double> busyUntil(p, 0);
    std::vector<int> inFlight(p, 0);
    sim.peakInFlight.assign(p, 0);

    long long totalOps = (long long)(splitW ? 3 : 2) * p * m * v;
    if (vShape) {
        totalOps = 0;
        for (const auto &order : orders)
            totalOps += (long long)order.size();
    }
    sim.events.reserve(size_t(totalOps));
    std::priority_queue<double, std::vector<double>, std::greater<>> times;
    times.push(0);

    auto available = [&](const OpRef &o, int s, double now) {
        if (o.op == PipelineOp::Forward)
            return fReady[idx(o.chunk, s, o.microBatch)] <= now;
        if (o.op == PipelineOp::Backward)
            return bReady[idx(o.chunk, s, o.microBatch)] <= now && fEnd[idx(o.chunk, s, o.microBatch)] <= now;
        return true;
    };
    // Zero-bubble (Qi et al. 2023): F while fewer than p-s micro-batches await their B (1F1B's
    // warm-up and bound), else B, and W only to fill time that would otherwise be idle. F before
    // B keeps 1F1B's fixed warm-up where uneven stages bring a B back early (B first starved
    // the stages behind: up to 32% over the closed form on such splits, against 29% now); even
    // stages run the same either way.
    auto pickZeroBubble = [&](int s, double now, OpRef &out) {
        if (nextF[s] < m && nextF[s] - nextB[s] < p - s && available({PipelineOp::Forward, 0, nextF[s]}, s, now)) {
            out = {PipelineOp::Forward, 0, nextF[s]};
            return true;
        }
        if (nextB[s] < m && available({PipelineOp::Backward, 0, nextB[s]}, s, now)) {
            out = {PipelineOp::Backward, 0, nextB[s]};
            return true;
        }
        // A W runs only if it ends before a B or F already on its way arrives (or none is).
        const bool bComing = nextB[s] < m && bReady[idx(0, s, nextB[s])] < now + durW[size_t(s)];
        const bool fComing = nextF[s] < m && nextF[s] - nextB[s] < p - s && fReady[idx(0, s, nextF[s])] < now + durW[size_t(s)];
        if (nextW[s] < nextB[s] && !bComing && !fComing) {
            out = {PipelineOp::WeightGrad, 0, nextW[s]};
            return true;
        }
        if (nextW[s] < nextB[s] && nextB[s] >= m && nextF[s] >= m) {
            out = {PipelineOp::WeightGrad, 0, nextW[s]};
            return true;
        }
        return false;
    };

    // An op done at `end` whose output leaves at `sent`: activations held, the next op's input.
    const auto runDone = [&](const OpRef &o, int s, double end, double sent) {
        const size_t here = idx(o.chunk, s, o.microBatch);
        if (o.op == PipelineOp::Forward) {
            fEnd[here] = end;
            ++inFlight[s];
            sim.peakInFlight[s] = std::max(sim.peakInFlight[s], inFlight[s]);
            ++nextF[s];
            double ready;
            size_t next;
            if (vShape) {
                // Down the ranks on chunk 0, back up on chunk 1; the turn at the last rank
                // stays on it, the loss is on rank 0.
                if (o.chunk == 0 && s < p - 1) {
                    next = idx(0, s + 1, o.microBatch);
                    ready = sent + boundary(s);
                } else if (o.chunk == 0) {
                    next = idx(1, s, o.microBatch);
                    ready = sent;
                } else if (s > 0) {
                    next = idx(1, s - 1, o.microBatch);
                    ready = sent + boundary(s - 1);
                } else {
                    bReady[here] = sent;
                    times.push(sent);
                    return;
                }
            } else if (s < p - 1) {
                next = idx(o.chunk, s + 1, o.microBatch);
                ready = sent + boundary(s);
            } else if (o.chunk < v - 1) {
                next = idx(o.chunk + 1, 0, o.microBatch);
                ready = sent + boundary(p - 1);
            } else {
                next = here;   // loss: backward starts on the same stage
                ready = end;
                bReady[next] = ready;
                times.push(ready);
                return;
            }
            fReady[next] = ready;
            times.push(ready);
        } else if (o.op == PipelineOp::Backward) {
            ++nextB[s];
            --inFlight[s];   // B consumes the stashed activations; W needs only its inputs' gradients
            size_t next;
            double hop;
            if (vShape) {
                if (o.chunk == 1 && s < p - 1) {
                    next = idx(1, s + 1, o.microBatch);
                    hop = boundary(s);
                } else if (o.chunk == 1) {
                    next = idx(0, s, o.microBatch);
                    hop = 0;
                } else if (s > 0) {
                    next = idx(0, s - 1, o.microBatch);
                    hop = boundary(s - 1);
                } else {
                    return;
                }
            } else if (s > 0) {
                next = idx(o.chunk, s - 1, o.microBatch);
                hop = boundary(s - 1);
            } else if (o.chunk > 0) {
                next = idx(o.chunk - 1, p - 1, o.microBatch);
                hop = boundary(p - 1);
            } else {
                return;
            }
            bReady[next] = sent + hop;
            times.push(bReady[next]);
        } else {
            ++nextW[s];
        }
    };

    long long scheduled = 0;
    double now = -1;
    while (scheduled < totalOps) {
        if (times.empty()) {
            sim.error = "pipeline schedule deadlocked";   // a bug in an order, not a user error
            return sim;
        }
        const double time = times.top();
        times.pop();
        if (time <= now)
            continue;
        now = time;
        for (int s = 0; s < p; ++s) {
            if (busyUntil[s] > now)
                continue;
            OpRef ops[2]{};
            int count = 1;
            if (splitW) {
                if (!pickZeroBubble(s, now, ops[0]))
                    continue;
            } else {
                if (position[s] >= orders[s].size() || !available(orders[s][position[s]], s, now))
                    continue;
                // DualPipeV's overlapped pair (_forward_backward_chunk) waits for both inputs, runs
                // its F and B, and sends both outputs when the pair is done.
                if (orders[s][position[s]].pairWithNext) {
                    if (position[s] + 1 >= orders[s].size() || !available(orders[s][position[s] + 1], s, now))
                        continue;
                    count = 2;
                }
                for (int k = 0; k < count; ++k)
                    ops[k] = orders[s][position[s]++];
            }
            // DualPipeV's two chunks of a rank need not be equal (rank 0's up chunk runs the head).
            const double share = perStage[size_t(s)].firstChunkShare;
            const auto duration = [&](const OpRef &o) {
                const double scale = vShape && share > 0 ? v * (o.chunk == 0 ? share : 1 - share) : 1.0;
                return scale * (o.op == PipelineOp::Forward    ? durF[size_t(s)]
                                : o.op == PipelineOp::Backward ? durB[size_t(s)] - (o.inputOnly ? durW[size_t(s)] : 0.0)
                                                               : durW[size_t(s)]);
            };
            double pairEnd = now;
            for (int k = 0; k < count; ++k)
                pairEnd += duration(ops[k]);
            double start = now;
            for (int k = 0; k < count; ++k) {
                const OpRef &o = ops[k];
                const double end = start + duration(o);
                const double sent = count > 1 ? pairEnd : end;   // when its output leaves
                sim.events.push_back({s, o.microBatch, o.chunk, o.op, start, end});
                start = end;
                ++scheduled;
                runDone(o, s, end, sent);
            }
            busyUntil[s] = pairEnd;
            times.push(pairEnd);
        }
    }
    for (const PipelineEvent &e : sim.events)
        sim.makespanSeconds = std::max(sim.makespanSeconds, e.endSeconds);
    for (const StageTimes &st : perStage)
        sim.busySecondsPerStage = std::max(sim.busySecondsPerStage, double(m) * (st.forwardSeconds + st.backwardSeconds));
    sim.bubbleFraction = sim.makespanSeconds > 0 ? 1.0 - sim.busySecondsPerStage / sim.makespanSeconds : 0.0;
    sim.ok = true;
    return sim;
}

double pipelineBubbleSeconds(Schedule schedule, int p, int v, const StageTimes &t, long long m)
{
    const double F = t.forwardSeconds, B = t.backwardSeconds, W = t.weightGradSeconds;
    switch (schedule) {
    case Schedule::GPipe:
    case Schedule::OneFOneB:
        return (p - 1) * (F + B);
    case Schedule::Interleaved:
        return (p - 1) * (F + B) / std::max(1, v);
    case Schedule::ZeroBubbleH1:
        return (p - 1) * std::max(B - W, F + (B - W) - W) + (m > 0 && m < p ? double(p - m) * std::min(F, W) : 0.0);
    case Schedule::DualPipeV:
        // DeepSeek's (PP/2 - 1)(F&B + B - 3W) per chunk (arXiv:2412.19437 Table 2; PP = 2p stages,
        // a chunk half a rank's layers: f = F/2, b = B/2, w = W/2, the overlapped pair F&B = f + b),
        // and never below two chunk forwards a rank: (p - 1) max(F/2 + B - 1.5 W, F). The
        // simulation of dualpipev.py's order, pairs whole, is within F/2 of it (tst_pipeline).
        return (p - 1) * std::max(F / 2 + B - 1.5 * W, F);
    }
    return 0;
}

namespace {

StageTimes stageTimeAt(std::span<const int> stageLayers, size_t i, const LayerTimesPerStage &l)
{
    // The V's first rank holds the last stage too: the LM head and the loss run there.
    const bool first = i == 0, last = l.headOnFirstStage ? i == 0 : i + 1 == stageLayers.size();
    const double L = stageLayers[i];
    const double embedding = first ? l.embeddingGradSeconds : 0.0;
    StageTimes t;
    t.forwardSeconds = L * (l.forwardSeconds + l.forwardCommSeconds) + (last ? l.headForwardSeconds : 0.0);
    t.backwardSeconds = L * (l.backwardSeconds + l.backwardCommSeconds) + (last ? l.headBackwardSeconds : 0.0) + embedding;
    t.weightGradSeconds = std::min(t.backwardSeconds, L * l.weightGradSeconds + (last ? l.headWeightGradSeconds : 0.0) + embedding);
    t.p2pSeconds = l.p2pSeconds;
    return t;
}

// Fill and drain pass once through every stage but the slowest: the even closed form at the
// slowest stage's times, scaled by the other stages' share. at(i) gives stage i's times.
template <class StageAt>
double unevenBubble(Schedule schedule, int p, int v, long long m, StageAt at)
{
    if (p <= 1)
        return 0;
    StageTimes slowest{};
    double total = 0, slowFB = -1, maxF = 0, maxB = 0;
    for (int i = 0; i < p; ++i) {
        const StageTimes t = at(i);
        const double fb = t.forwardSeconds + t.backwardSeconds;
        total += fb;
        maxF = std::max(maxF, t.forwardSeconds);
        maxB = std::max(maxB, t.backwardSeconds);
        if (fb > slowFB) {
            slowFB = fb;
            slowest = t;
        }
    }
    const double share = slowFB > 0 ? std::min(1.0, (total - slowFB) / ((p - 1) * slowFB)) : 1.0;
    const double scaled = pipelineBubbleSeconds(schedule, p, v, slowest, m) * share;
    if (schedule != Schedule::GPipe)
        return scaled;
    // GPipe runs every forward, then every backward: each phase is a flow shop of m identical jobs
    // (the last leaves after the sum of the stages' times + (m - 1) x the longest: the critical
    // path runs all m jobs through the longest stage), so it is paced by the slowest forward and
    // then the slowest backward, which need not be on one stage (the loss slot's forward, the
    // embedding's backward). Idle time of the stage with the largest F + B:
    //   sum_i (F_i + B_i) + (m - 1)(max F + max B) - m (F_s + B_s).
    const double mm = double(m > 0 ? m : p);
    return scaled + (mm - 1) * std::max(0.0, maxF + maxB - slowFB);
}

} // namespace

std::vector<StageTimes> stageTimesOf(std::span<const int> stageLayers, const LayerTimesPerStage &l)
{
    std::vector<StageTimes> out(stageLayers.size());
    for (size_t i = 0; i < stageLayers.size(); ++i)
        out[i] = stageTimeAt(stageLayers, i, l);
    return out;
}

int slowestStage(const std::vector<StageTimes> &perStage)
{
    int slowest = 0;
    for (size_t i = 1; i < perStage.size(); ++i)
        if (perStage[i].forwardSeconds + perStage[i].backwardSeconds
            > perStage[size_t(slowest)].forwardSeconds + perStage[size_t(slowest)].backwardSeconds)
            slowest = int(i);
    return slowest;
}

double pipelineBubbleSeconds(Schedule schedule, int v, const std::vector<StageTimes> &perStage, long long m)
{
    return unevenBubble(schedule, int(perStage.size()), v, m, [&](int i) { return perStage[size_t(i)]; });
}

double pipelineBubbleSeconds(Schedule schedule, int v, std::span<const int> stageLayers, const LayerTimesPerStage &l,
                             long long m)
{
    // A middle stage with the layers of the middle stage before it has its times (no head, no embedding).
    StageTimes previous{};
    return unevenBubble(schedule, int(stageLayers.size()), v, m, [&](int i) {
        const size_t k = size_t(i);
        if (!(i > 1 && k + 1 < stageLayers.size() && stageLayers[k] == stageLayers[k - 1]))
            previous = stageTimeAt(stageLayers, k, l);
        return previous;
    });
}

bool stageBoundaryLeavesNode(int stage, int p, int stagesPerNode)
{
    if (p <= 1 || stagesPerNode >= p)
        return false;
    return stagesPerNode <= 1 || stage == p - 1 || (stage + 1) % stagesPerNode == 0;
}

int boundariesLeavingNode(int p, int stagesPerNode)
{
    // stageBoundaryLeavesNode over the p - 1 boundaries: every one when each stage has its own
    // nodes, none when a node holds the pipeline, else every stagesPerNode-th.
    if (p <= 1 || stagesPerNode >= p)
        return 0;
    return stagesPerNode <= 1 ? p - 1 : (p - 1) / stagesPerNode;
}

double pipelineP2pExposedSeconds(Schedule schedule, int p, int v, long long m, const StageTimes &t, const BoundaryMix &mix)
{
    if (p <= 1)
        return 0;
    const double d = t.p2pSeconds, chain = t.p2pChainSeconds >= 0 ? t.p2pChainSeconds : d;
    // Boundaries of both kinds, the node-leaving ones the slower: 1F1B's stages inside a node run
    // up to stagesPerNode - 2 micro-batches ahead of a slow boundary, after which each micro-batch
    // pays its transfer once (not the round trip the even pipeline pays at every boundary), and
    // the in-node boundaries their (2 - 2/p) share; fit to the event simulation within +10-25%
    // over p 4-16, m 16-128 and 2-8 stages a node (tests/model/tst_pipeline.cpp).
    const bool mixed = mix.inNodeSeconds >= 0 && mix.inNodeSeconds < d && mix.stagesPerNode > 1 && mix.stagesPerNode < p;
    // A critical stage slower than the rest by s: each cycle it waits for the round trip over its
    // own boundary (its gradient out, its neighbour's backward and next forward, the activation
    // back), 2 d, less the s its neighbour has to spare, and no longer than the even pipeline's
    // steady wait w: min(w, max(0, 2 d - s)) a micro-batch. The first trip through every boundary
    // and the last gradient's back stay (event simulation with a heavier last stage,
    // tests/model/tst_pipeline.cpp).
    const auto lessSlack = [&](double steady, double fillDrain) {
        const double s = std::max(0.0, mix.slackSeconds);
        if (s <= 0 || m <= 0)
            return steady + fillDrain;
        const double own = mix.criticalBoundarySeconds >= 0 ? mix.criticalBoundarySeconds : d;
        const double perMicro = std::min(steady / double(m), std::max(0.0, 2.0 * own - s));
        return std::max(double(m) * perMicro + fillDrain, 2.0 * (p - 1) * chain);
    };
    if (mixed && (schedule == Schedule::OneFOneB || schedule == Schedule::ZeroBubbleH1))
        return lessSlack(std::max(0.0, double(m) - std::max(0, mix.stagesPerNode - 2)) * d
                             + (1.0 - 2.0 / p) * double(m) * mix.inNodeSeconds,
                         2.0 * (p - 2) * chain);
    switch (schedule) {
    case Schedule::GPipe:
        return 2.0 * (p - 1) * chain;                      // fill and drain cross p-1 boundaries each way
    case Schedule::Interleaved: {
        // Fill and drain: v(p-1) boundaries plus v-1 wrap-arounds, each way. The steady state
        // hides the transfers until the chain behind a chunk outlasts the time stage 1 holds it
        // (Little's law over chunks in flight): chunk c of a micro-batch is done on stage 1 only
        // after (v - c) p forward and as many backward chunk ops and 2((v - c) p - 1) transfers,
        // (v + 1) p / 2 of each on average, while stage 1 holds 2(p - 1) + (v - 1) p + 1 chunks
        // (Megatron's warm-up plus one). A chunk leaves every (F + B) / v when compute-bound.
        const double vv = std::max(1, v), chunkSeconds = (t.forwardSeconds + t.backwardSeconds) / vv;
        const double chainSeconds = (vv + 1) / 2 * p * chunkSeconds + ((vv + 1) * p - 2) * d;
        const double held = std::min(double(m) * vv, 2.0 * (p - 1) + (vv - 1) * p + 1);
        // Megatron's order also ties each chunk op to its neighbour's: a micro-batch group's forward
        // (backward) chain crosses p boundaries while stage 1 runs p forward and p backward chunks,
        // so a transfer longer than a chunk's backward (forward) stalls every chunk by the difference.
        const double orderWait = std::max(0.0, d - std::min(t.forwardSeconds, t.backwardSeconds) / vv);
        const double wait = std::max({0.0, chainSeconds / held - chunkSeconds, orderWait});
        // No more waiting than there is transfer time (every transfer at the slowest boundary).
        return std::min(2.0 * (vv * p - 1) * chain + double(m) * vv * wait, (2.0 * double(m) * vv + 2.0 * (p - 1)) * d);
    }
    case Schedule::DualPipeV:
        // An overlapped pair sends its outputs only when both halves are done, so each steady
        // cycle waits on its neighbours' transfers as 1F1B's does, (2 - 2/p) d a micro-batch, and
        // the fill and drain cross about 4p - 8 boundaries (fit to the event simulation within
        // 30% or 4 transfers, tst_pipeline).
        return (2.0 - 2.0 / p) * double(m) * d + std::max(0, 4 * p - 8) * chain;
    case Schedule::OneFOneB:
    case Schedule::ZeroBubbleH1:
        // 1F1B alternates F and B, so each steady-state cycle waits on a round trip to the next
        // stage: about (2 - 2/p) d per micro-batch, plus the fill and drain (fit to the simulation,
        // tests/model/tst_pipeline.cpp).
        return lessSlack((2.0 - 2.0 / p) * double(m) * d, 2.0 * (p - 2) * chain);
    }
    return 0;
}

double inFlightMicroBatches(Schedule schedule, int p, int stage, long long m, int v)
{
    const double mm = double(m);
    if (p <= 1)
        return 1;
    switch (schedule) {
    case Schedule::GPipe:
        return mm;
    case Schedule::OneFOneB:
    case Schedule::ZeroBubbleH1:
        return std::min(mm, double(p - stage));
    case Schedule::Interleaved: {
        const double vv = std::max(1, v);
        const double warmup = 2.0 * (p - stage - 1) + (vv - 1) * p;
        return std::min(mm * vv, warmup + 1) / vv;
    }
    case Schedule::DualPipeV:
        // Every rank of the V holds 2p + 1 chunks at its peak (DeepSeek's table: PP + 1 stages'
        // worth for PP = 2p stages; the event simulation's count), half a rank's layers each.
        return std::min(2.0 * mm, 2.0 * p + 1) / 2;
    }
    return 1;
}

namespace {
// stageLayerCounts into `out`, which holds max(1, pp) zeros.
void fillStageLayerCounts(int layers, const Plan &plan, std::span<int> out)
{
    const int p = int(out.size());
    if (p == 1) {
        out[0] = layers;
        return;
    }
    // Which stages share the rest evenly, and how many slots that rest has.
    int first = plan.firstStageLayers, last = plan.lastStageLayers;
    int lo = 0, hi = p - 1;   // inclusive range of evenly filled stages
    int rest = layers + (plan.embeddingInSplit ? 1 : 0) + (plan.lossInSplit ? 1 : 0);
    if (first > 0) {
        out[0] = first;
        rest -= first + (plan.embeddingInSplit ? 1 : 0);
        lo = 1;
    }
    if (last > 0) {
        out[size_t(p - 1)] = last;
        rest -= last + (plan.lossInSplit ? 1 : 0);
        hi = p - 2;
    }
    const int count = hi - lo + 1;
    if (count <= 0)
        return;
    const int base = rest / count;
    int extra = rest % count;
    for (int i = lo; i <= hi; ++i)
        out[size_t(i)] = base;
    // Extra layers: middle stages first, then the last, then the first.
    for (int i = std::max(lo, 1); i <= std::min(hi, p - 2) && extra > 0; ++i, --extra)
        ++out[size_t(i)];
    if (extra > 0 && hi == p - 1) {
        ++out[size_t(p - 1)];
        --extra;
    }
    if (extra > 0 && lo == 0)
        ++out[0];
    if (first == 0 && plan.embeddingInSplit)
        --out[0];
    if (last == 0 && plan.lossInSplit)
        --out[size_t(p - 1)];
}
} // namespace

std::vector<int> stageLayerCounts(int layers, const Plan &plan)
{
    std::vector<int> out(size_t(std::max(1, plan.pp)), 0);
    fillStageLayerCounts(layers, plan, out);
    return out;
}

std::vector<int> dualPipeVStageLayers(const Workload &workload, const Plan &plan)
{
    // The V: 2p stages split as any pipeline's (first/last_stage_layers name stage 0 and 2p-1);
    // the MTP layers go with the last stage.
    Plan stages = plan;
    stages.pp = 2 * std::max(1, plan.pp);
    stages.schedule = Schedule::OneFOneB;
    std::vector<int> layers = stageLayerCounts(workload.layers, stages);
    layers.back() += std::max(0, workload.mtpLayers);
    return layers;
}

std::vector<double> dualPipeVFirstChunkShares(const Workload &workload, const Plan &plan, const LayerTimesPerStage &l)
{
    if (plan.schedule != Schedule::DualPipeV || plan.pp <= 1)
        return {};
    const std::vector<int> stages = dualPipeVStageLayers(workload, plan);
    const int p = plan.pp;
    std::vector<double> out(size_t(p), 0.0);
    if (int(stages.size()) != 2 * p)
        return out;
    const double perLayer = l.forwardSeconds + l.forwardCommSeconds + l.backwardSeconds + l.backwardCommSeconds;
    for (int i = 0; i < p; ++i) {
        // Rank i: stage i going down (rank 0's with the embedding's gradient), stage 2p - 1 - i
        // coming back (rank 0's with the LM head and loss), as stageTimeAt charges the rank.
        const double down = stages[size_t(i)] * perLayer + (i == 0 ? l.embeddingGradSeconds : 0.0);
        const double up = stages[size_t(2 * p - 1 - i)] * perLayer + (i == 0 ? l.headForwardSeconds + l.headBackwardSeconds : 0.0);
        out[size_t(i)] = down + up > 0 && down / (down + up) < 1 ? down / (down + up) : 0.0;
    }
    return out;
}

int chunksPerStage(const Plan &plan)
{
    if (plan.schedule == Schedule::Interleaved)
        return plan.virtualStages;
    return plan.schedule == Schedule::DualPipeV && plan.pp > 1 ? 2 : 1;
}

std::vector<int> stageLayersOf(const Workload &workload, const Plan &plan)
{
    if (plan.schedule == Schedule::DualPipeV && plan.pp > 1) {
        // Rank i holds stage i and stage 2p-1-i: rank 0 both ends, with the head.
        const std::vector<int> stages = dualPipeVStageLayers(workload, plan);
        std::vector<int> ranks(size_t(plan.pp));
        for (int i = 0; i < plan.pp; ++i)
            ranks[size_t(i)] = stages[size_t(i)] + stages[size_t(2 * plan.pp - 1 - i)];
        return ranks;
    }
    std::vector<int> layers = stageLayerCounts(workload.layers, plan);
    layers.back() += std::max(0, workload.mtpLayers);
    return layers;
}

std::span<const int> stageLayersOf(const Workload &workload, const Plan &plan, std::span<int> buffer, std::vector<int> &heap)
{
    const size_t p = size_t(std::max(1, plan.pp));
    if ((plan.schedule == Schedule::DualPipeV && plan.pp > 1) || p > buffer.size()) {
        heap = stageLayersOf(workload, plan);
        return heap;
    }
    const std::span<int> out = buffer.first(p);
    std::fill(out.begin(), out.end(), 0);
    fillStageLayerCounts(workload.layers, plan, out);
    out.back() += std::max(0, workload.mtpLayers);
    return out;
}

long long requiredMicroBatches(Schedule schedule, int p, int v, double e, const StageTimes &t)
{
    // efficiency = m (F+B) / (m (F+B) + bubble)  =>  m >= bubble e / ((F+B)(1-e))
    const double perMicroBatch = t.forwardSeconds + t.backwardSeconds;
    if (p <= 1 || perMicroBatch <= 0)
        return 1;
    if (!(e > 0 && e < 1))
        return -1;
    const double bubble = pipelineBubbleSeconds(schedule, p, v, t);
    long long m = std::max(1LL, (long long)std::ceil(bubble * e / (perMicroBatch * (1 - e)) - 1e-9));
    // ZB-H1 below p micro-batches has a larger bubble: the first m that reaches e with its own.
    while (schedule == Schedule::ZeroBubbleH1 && m < p) {
        const double own = pipelineBubbleSeconds(schedule, p, v, t, m);
        if (double(m) * perMicroBatch / (double(m) * perMicroBatch + own) >= e - 1e-12)
            break;
        ++m;
    }
    if (schedule == Schedule::Interleaved && m % p != 0)
        m += p - m % p;
    if (schedule == Schedule::DualPipeV)   // its order runs 2 micro-batches per rank at least
        m = std::max(m, 2LL * p);
    return m;
}

int maxStagesForEfficiency(Schedule schedule, long long m, int v, double e, const StageTimes &t)
{
    const double perMicroBatch = t.forwardSeconds + t.backwardSeconds;
    if (!(e > 0 && e < 1) || perMicroBatch <= 0)
        return 1;
    // bubble per extra stage, from the closed form at p = 2
    const double bubblePerStage = pipelineBubbleSeconds(schedule, 2, v, t);
    if (bubblePerStage <= 0)
        return std::numeric_limits<int>::max();
    const double allowed = m * perMicroBatch * (1 - e) / e;
    const int stages = 1 + int(std::floor(allowed / bubblePerStage + 1e-9));
    // DualPipeV's order needs m >= 2p.
    return schedule == Schedule::DualPipeV ? int(std::min<long long>(stages, std::max(1LL, m / 2))) : stages;
}

} // namespace ts
