// SPDX-License-Identifier: MIT
// Validation against published, measured runs (tests/data/validation/, copied with its README and
// sources from the project's shared validation set). One set of documented defaults, no per-row or
// per-source factor. The test prints predicted against published for every run, then checks:
//  - each source's median and worst |error| against the bounds below (they record where the model
//    stands; the issue's targets are tighter, see README "Validation");
//  - every run that really ran fits in memory (known exceptions are marked and explained);
//  - configurations that cannot run do not fit.
// Copy note: the Megatron SC21 (2021) scenarios say "attention": "materialized": those runs stored
// the s x s scores; FlashAttention appeared in 2022.
#include "evaluate.h"
#include "kernels.h"
#include "planner.h"
#include "scenarioio.h"
#include "schedules.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <tuple>
#include <vector>

using namespace ts;

namespace {

struct Bound
{
    double median, worst;
};
// Per source: median and worst |relative error| the model must stay within.
const std::map<QString, Bound> kBounds = {
    {QStringLiteral("megatron"), {0.05, 0.10}},       // SC21 Table 1, hardware TFLOP/s (A100): 3.8% / 8.9% (the issue's 5% / 10% met)
    {QStringLiteral("mlm"), {0.08, 0.315}},           // Megatron-LM H100 table, model TFLOP/s: 7.1% / 27.7% (32B: README "Validation"; 7.8% / 30.0% before DP over one rank per node held 4 SMs, not 32); 10.3% as 1F1B
    // NeMo 24.07 FP8 (delayed scaling), tokens/s: 4.5% / 11.2% (the issue's 5% / 15% met; 4.0% before
    // the 16-bit LM head took the BF16 GEMM ceiling instead of the FP8 one, which is right and faster).
    {QStringLiteral("nemo2407"), {0.05, 0.115}},
    {QStringLiteral("titan#memory"), {0.06, 0.15}},  // torchtitan peak memory (max reserved): 5.6% / 14.0%
    // Megatron-Bridge H100, B200, GB200 and GB300, FP8 current scaling (tensorwise) and MXFP8, tokens/s:
    // 6.5% / 14.0% over 25 runs (5.8% over the first 14; the 10 GB200/GB300 rows held out: GB200 5-11%
    // fast, GB300 1-9% slow since their cuDNN attention is read from the non-deterministic backward
    // training runs; 3-8% and 4-11% before, README "Validation"). 2026-11-30, the rack parts'
    // sustained fractions from Azure's measured sustained FP8 GEMMs (gpus.json): 5.2% / 14.0%,
    // GB200 -0.1% to +6.0%, GB300 -7.4% to +0.8%.
    {QStringLiteral("mbridge"), {0.06, 0.15}},
    // Megatron-Bridge mixture-of-experts rows (Qwen3 30B-A3B, 235B-A22B; 26.04.01-26.06), tokens/s:
    // 4.8% / 57.7% over 7 runs, held out. Blackwell (MXFP8, HybridEP inside NVLink, all-to-alls
    // overlapped, FP8 attention as their recipes run it) +1.3% to +7.3% (-1.5% to +2.8% before
    // GB200's and GB300's attention was read from the non-deterministic backward and their FP8
    // attention charged: both right, both faster), H100 235B with NCCL's all-to-all +4.0%. H100 30B +57.7%: its
    // HybridEP sends a token across nodes once, as plan.ep_dispatcher hybridep charges at the NIC's
    // rate (DeepEP's own kernels reach 86% of it), but the run implies about 13 GB/s per GPU,
    // HybridEP's RDMA path of the time (DeepEP#590: 38-44 GB/s on 100 GB/s NICs); -13.6% with the
    // all-to-all of every copy (README "Validation"). DeepSeek-V3 (26.04.01-26.08, MXFP8, 9 runs),
    // held out after MLA, shared experts, dense first layers, MTP and Megatron's recompute modules
    // were modelled: GB300 -10% to -11%, GB200 +0.6% to +1.8% (+6.1% for the 26.04.01 config),
    // B200 +13.0%. All 16: 6.4% / 57.7%. The 25.09 H100 row (TP 2, held out after MLA's TP
    // collectives were modelled) +21.1%; then attention following the head dim (MLA's heads 6% faster)
    // and DeepSeek-V3's node-limited routing (a token reaches 3.47 other nodes, not 4.6: checked
    // against a simulation of Megatron-Core's router) took the two DeepEP rows whose all-to-alls cross
    // nodes without CUDA graphs to H100 +25.3% and B200 +18.0%; the graphed rack rows moved under 1
    // point. All 17: 7.2% / 57.7%. 2026-11-30: the dispatcher's host sync charged where the exchange
    // runs in the open (kernels.h moeDispatchSyncSeconds): H100 30B +57.7% -> +43.7%, GB200 DeepSeek-V3
    // 26.04.01 +3.5% -> +0.1%, and Megatron-Bridge's own BF16 A/B of the H100 30B plan added (the
    // moe-comm-overlap skill): +13.0% with the exchange in the open (the run whose profile set the
    // sync), +26.8% with ep_overlap, which the model hides more of than the profile's 36.6%. All 19:
    // 6.8% / 43.7%.
    {QStringLiteral("moe"), {0.08, 0.50}},
    // Megatron-Bridge GPT-OSS 120B (128 experts top-4, a 128-token window on every other layer),
    // tokens/s, held out after sliding-window attention was modelled: 51.5% / 76.1% over 7 runs (52.7% /
    // 78.3% before their recompute modules were expressed), every
    // row too fast. 26.04.01 BF16 (H100, B200, B300, GB200, GB300) +50% to +76%: eager dropless MoE
    // whose dispatch waits on the host for each layer's split sizes, and per-expert Python paths for
    // GPT-OSS's expert biases; 26.08 MXFP8 on GB200/GB300 with full-iteration CUDA graphs and a
    // sync-free dispatcher +29% / +40% (NVIDIA measured 1.72x between the two recipes, 1.035x from
    // MXFP8 alone). The model charges none of GPT-OSS's unfused extras and, of the host time, only the
    // dispatcher's sync where the exchange runs in the open (since 2026-11-30: 49.3% -> 45.4% median,
    // README "Validation").
    // 2026-11-30: 45.4% / 63.6% since GB200's sustained FP8 GEMM was read from Azure's measurement;
    // 43.4% / 60.2% since Megatron-Core's unfused RoPE under YaRN's attention factor is charged;
    // 31.9% / 42.7% since its op-by-op GLU clamp and per-expert fc2 bias are ([MOE-BIAS-CLAMP]).
    {QStringLiteral("gptoss"), {0.34, 0.46}},
    // Megatron-Bridge NVFP4 rows (Llama 3 70B 26.04.01, 3.1 405B 26.06; GB200 and GB300), tokens/s,
    // held out after the FP4 ceilings were set from TransformerEngine's B300 GEMM profiling:
    // 9.6% / 14.6%: GB200 +2.6% and +12.3%, GB300 -6.8% and -14.6%, the GB300 gap of the FP8 rows
    // (6-9%) wider on 70B, where the FP4 GEMMs draw the most power (README "Validation"); 8.9% / 16.4%
    // before GB200's and GB300's attention was read from the non-deterministic backward. 2026-11-30,
    // the rack parts' sustained fractions from Azure's measured FP8 GEMMs: 6.7% / 13.3% (GB200 +7.9%
    // and -1.6%, GB300 -13.3% and -5.4%).
    {QStringLiteral("nvfp4"), {0.075, 0.145}},
    // NVIDIA DGX Cloud benchmarking (NeMo 24.12-25.04), step time: 3.2% / 20.0%. H100 BF16/FP8 within
    // -3% to +8%; GB200 8-13% (BF16) and 18-22% (FP8) too fast (README "Validation"); 21.8% worst before
    // attention followed the head dim ([FA3]: Nemotron-4 340B's 192-wide heads run faster per FLOP).
    // 2026-11-30, GB200's sustained fraction from Azure's measured sustained FP8 GEMM: 2.6% / 16.6%
    // (GB200 BF16 -2.8% and -7.2%, FP8 -13.8% and -16.6%).
    {QStringLiteral("dgxc"), {0.035, 0.18}},
    // Korthikanti et al. 2022 Table 5 (A100, full recompute against SP + selective), iteration time:
    // 175B-1T within 1-4%; 22B's one micro-batch of 4 (Calculon's reading) -4.2% / -9.4%.
    {QStringLiteral("seqsel"), {0.04, 0.105}},
    // MLPerf Training (NVIDIA; University of Florida's B200 runs; Cisco's H100 runs; Dell's B300 and AMD's
    // MI355X nodes; Nebius's H200), step time: 5.9% / 28.7% (4.9% before GB200's and GB300's attention
    // was read from the non-deterministic backward). H100 405B within 1.6%, B200 GPT-3 -1.1%, B200 8B on 8-256
    // GPUs -7.3% to +14.8% with the runs' own gradient buckets (4.7% median with the framework's:
    // the 256-GPU run's 60 buckets each pay a 255-step ring latency, README "Validation"), MI355X 8B
    // -4.3% (held out), GB300 8B on one rack -0.1% (held out; GB200 on the same plan and software
    // -7.1%: measured GB300/GB200 1.15, modelled 1.07), H200 405B on 512 and 1024 +0.2% and +0.4% (held
    // out); H100 GPT-3
    // +12-13% too slow (MLPerf-tuned software), GB200 405B 9-10% and B200 405B 9-10% too fast, Cisco's
    // H100 8B -10.2% (TP1) and -28.7% (TP2), run with memory workarounds the model does not charge
    // (allocator split limit, cuBLAS workspace, a thinned TP overlap: README "Validation"). 2026-11-30,
    // the rack parts' sustained fractions from Azure's measured FP8 GEMMs: 4.6% / 28.7%; GB200 405B
    // -5.9% and -5.2%, 8B on a GB200 rack -3.5% and on a GB300 rack -1.4% (modelled GB300/GB200 1.12).
    {QStringLiteral("mlperf"), {0.055, 0.29}},
    // IBM/PyTorch fms-fsdp (PyTorch FSDP + torch.compile, A100 and H100), tokens/s: 3.5% / 12.8% (A100
    // FULL_SHARD 34B/70B -12%: README "Validation").
    {QStringLiteral("fms"), {0.04, 0.13}},
    // allenai/OLMo-core's H100 throughput table (PyTorch FSDP2 FULL_SHARD + torch.compile, BF16 and
    // torchao Float8), tokens/s: 6.0% / 29.8%. 1B-8B within +2.0% to +7.7%; 13B at one 4096-token
    // micro-batch +14% (BF16) and +31% (FP8), measured near compute plus its collectives in series
    // (README "Validation", test-data README section O).
    {QStringLiteral("olmo"), {0.065, 0.31}},
    // BigScience BLOOM-176B (Megatron-DeepSpeed, PipelineEngine + BF16 optimizer, A100, 2022), step
    // time: 11.8% / 19.6%: TP2 plans -11% to -12%, TP4 plans -12% (the production run, MBS 2) to -20%
    // on 24-36 nodes, not understood; TP1 PP72 -3.7% (two stages a node: half its boundaries cross
    // Omni-Path) (README "Validation").
    {QStringLiteral("bloom"), {0.13, 0.21}},
    // Megatron-Turing NLG 530B (Megatron-DeepSpeed, DeepSpeed's 1F1B pipeline engine, A100, 2021),
    // step time: 23.6% / 25.8%, every row too fast, 0.219-0.229 s per 1F1B slot measured against
    // 0.169 modelled; not in the schedule (README "Validation"), not understood.
    {QStringLiteral("mtnlg"), {0.24, 0.27}},
    // DeepSpeed ZeRO-3 without TP or PP (Megatron-DeepSpeed, Azure A100, fp16, 2022), the 175B peak
    // in hardware TFLOP/s: +12.3%, too fast as the other 2021-22 DeepSpeed runs are (test-data
    // README section S); over HBM before DeepSpeed's submodule gathers were modelled.
    {QStringLiteral("dsazure"), {0.13, 0.13}},
    // mosaicml/llm-foundry's MPT tables (Composer + PyTorch FSDP1, eager, H100, 2023-24), tokens/s,
    // held out: 4.8% / 19.1% since the runs' attention kernel was read in the benchmark scripts
    // (2026-11-30: FlashAttention's Triton kernel, attn_impl triton, at [FA2]'s 0.45 of
    // FlashAttention-2; 18.5% / 35.5% and every row too fast with FlashAttention-2 assumed, the
    // small models most). 13B on 8 GPUs +19.1% (one 2-sequence micro-batch whose FSDP collectives
    // the run shows in series, as OLMo-core's 13B), 7B at 8K -14.9% (test-data README section T).
    {QStringLiteral("mpt"), {0.055, 0.20}},
    {QStringLiteral("seed000"), {1e-3, 1e-3}},   // published 0.49 s is rounded
    {QStringLiteral("seed003"), {1e-9, 1e-9}},   // 3/11 exactly
};

// torchtitan's speedups between two settings of a run (torchtitanSpeedupsBetweenSettings): worst
// |error| of the predicted speedup, 8.2% (AsyncTP on 70B BF16: 1.182 against 1.092; 7.5% before a
// gradient sync over one rank per node held NCCL's 4 SMs instead of 32, which shortens both steps;
// 10.6% before the summed input gradients' scatters were left exposed). The model has 70B's BF16
// gain above its FP8 one; torchtitan measured the reverse (README "Validation").
constexpr double kTorchtitanSpeedupWorst = 0.085;

// Every run here really ran and must fit (README "Validation"). Four Megatron-Bridge MoE runs (Qwen3
// 30B-A3B at micro-batch 8 on GB300 and B300, DeepSeek-V3 26.04.01 on GB200 and B200) came out over
// HBM until the experts' output rows were no longer counted: Megatron-Core >= 0.13 weighs the
// activation by the routing probabilities and its unpermute keeps only its row map.
// One measured row of cudnn-frontend's SDPA training benchmark against the model's attention.
struct AttentionRow
{
    QByteArray gpu;
    int seq = 0;
    bool causal = false;
    double model = 0, measured = 0;   // forward + backward TFLOP/s (2.5 x the forward FLOPs backward)
};

// Reads tests/data/kernels/<file>: gpu, cudnn, [recipe,] seq, causal, batch, q heads, kv heads,
// head dim, fwd and bwd TFLOP/s (the FP8 file has the recipe column). Times the attention of a
// layer with those heads on the GPU preset at the burst clock the benchmark ran at, prints the
// pair and returns the rows read; `check` says whether a row is within its tolerance.
int forEachAttentionRow(const char *file, bool fp8, const std::function<bool(const AttentionRow &)> &check)
{
    QFile f(QFINDTESTDATA(QStringLiteral("../data/kernels/") + QLatin1String(file)));
    if (!f.open(QIODevice::ReadOnly)) {
        QTest::qFail("cannot open the attention table", __FILE__, __LINE__);
        return -1;
    }
    f.readLine();
    int rows = 0;
    const int k = fp8 ? 1 : 0;   // the recipe column
    while (!f.atEnd()) {
        const QList<QByteArray> c = f.readLine().trimmed().split(',');
        if (c.size() != 10 + k)
            continue;
        ++rows;
        AttentionRow r;
        r.gpu = c[0];
        const QByteArray recipe = fp8 ? c[2] : QByteArray();
        r.seq = c[2 + k].toInt();
        r.causal = c[3 + k] == "1";
        const int batch = c[4 + k].toInt(), heads = c[5 + k].toInt(), kvHeads = c[6 + k].toInt(), headDim = c[7 + k].toInt();
        r.measured = 3.5 / (1 / c[8 + k].toDouble() + 2.5 / c[9 + k].toDouble());
        const QByteArray training = fp8 ? QByteArray(R"({"global_batch": 8, "precision": "fp8", "fp8_recipe": ")")
                                              + (recipe == "mxfp8" ? "mxfp8" : "tensorwise") + R"(", "fp8_attention": true})"
                                        : QByteArray(R"({"global_batch": 8})");
        const QByteArray json = QByteArray(R"({"format": "trainscope-scenario/1", "workload": {"layers": 1, "hidden": HIDDEN,
            "heads": HEADS, "kv_heads": KV, "vocab": 32000, "seq_len": 8192}, "training": TRAINING,
            "cluster": {"gpu": "GPU", "gpus": 8}, "plan": {"tp": 1, "pp": 1, "dp": 8}})")
                                    .replace("HIDDEN", QByteArray::number(heads * headDim))
                                    .replace("HEADS", QByteArray::number(heads))
                                    .replace("KV", QByteArray::number(kvHeads))
                                    .replace("TRAINING", training)
                                    .replace("GPU", r.gpu);
        ScenarioError error;
        const auto loaded = parseScenario(json, &error);
        const auto problem = loaded ? validate(loaded->scenario) : std::nullopt;
        if (!loaded || problem) {
            QTest::qFail(loaded ? problem->message.c_str() : qPrintable(error.text()), __FILE__, __LINE__);
            return -1;
        }
        Gpu gpu = loaded->scenario.cluster.gpu;
        gpu.sustainedFraction = 1.0;   // the benchmark times its calls at the boost clock
        Workload w = loaded->scenario.workload;
        w.seqLen = r.seq;
        w.causal = r.causal;
        const Precision precision = fp8 ? Precision::Fp8 : Precision::Bf16;
        const LayerTimes t = layerTimes(w, precision, double(batch) * r.seq, 1, 1, false,
                                        kernelSpec(gpu, precision, loaded->scenario.training.fp8Recipe, Framework::Megatron, fp8));
        const double forwardFlops = 4.0 * batch * heads * double(r.seq) * r.seq * headDim * (r.causal ? 0.5 : 1);
        r.model = 3.5 * forwardFlops / (t.attentionForward + t.attentionBackward) / 1e12;
        qInfo("%-6s cuDNN %s %-5s %5d %-10s model %5.0f TFLOP/s, measured %5.0f (%+.0f%%)", r.gpu.constData(), c[1].constData(),
              fp8 ? recipe.constData() : "bf16", r.seq, r.causal ? "causal" : "non-causal", r.model, r.measured,
              100 * (r.model / r.measured - 1));
        if (!check(r)) {
            QTest::qFail(qPrintable(QStringLiteral("%1 %2 %3: model / measured %4").arg(QLatin1String(r.gpu)).arg(r.seq)
                                        .arg(r.causal ? QStringLiteral("causal") : QStringLiteral("non-causal")).arg(r.model / r.measured)),
                         __FILE__, __LINE__);
            return -1;
        }
    }
    return rows;
}

QString dataDir() { return QFINDTESTDATA("../data/validation"); }

std::optional<LoadedScenario> load(const QString &name, QString *why)
{
    QFile f(dataDir() + QStringLiteral("/scenarios/") + name + QStringLiteral(".json"));
    if (!f.open(QIODevice::ReadOnly)) {
        *why = QStringLiteral("cannot open ") + f.fileName();
        return std::nullopt;
    }
    ScenarioError error;
    auto loaded = parseScenario(f.readAll(), &error);
    if (!loaded)
        *why = error.text();
    return loaded;
}

double figure(const Evaluation &e, const QString &key)
{
    if (key == QLatin1String("hardware_tflops_per_gpu"))
        return e.hardwareFlopsPerSecondPerGpu / 1e12;
    if (key == QLatin1String("model_tflops_per_gpu"))
        return e.modelFlopsPerSecondPerGpu / 1e12;
    if (key == QLatin1String("tokens_per_s"))
        return e.tokensPerSecond;
    if (key == QLatin1String("step_time_s"))
        return e.breakdown.stepSeconds;
    if (key == QLatin1String("pp_bubble_fraction"))
        return e.ppBubbleFraction;
    if (key == QLatin1String("dp_comm_s"))
        return e.breakdown.dpCommSeconds;
    if (key == QLatin1String("memory_per_gpu_bytes"))
        return e.memory.totalBytes;
    return std::nan("");
}

} // namespace

class TestValidation : public QObject
{
    Q_OBJECT
private slots:
    // The Step timeline replays each run's step from the evaluation's per-stage times and puts its
    // DP sync where the evaluation does (the first gather before the first forward, per micro-batch
    // waits, the last buckets after the drain, the compute hidden syncs slow). Without a pipeline
    // nothing else is left to differ: the same step to rounding. With one, the replayed fill, drain
    // and transfers differ from the closed forms by a few percent (tst_pipeline bounds those).
    void stepTimelineReplaysEveryRun()
    {
        const QStringList names = QDir(dataDir() + QStringLiteral("/scenarios")).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QVERIFY(names.size() > 100);
        int replayed = 0;
        for (const QString &file : names) {
            QString why;
            const auto loaded = load(file.chopped(5), &why);
            QVERIFY2(loaded, qPrintable(file + QStringLiteral(": ") + why));
            const Evaluation e = evaluate(loaded->scenario);
            if (!e.feasible)
                continue;
            const StepTimeline tl = stepTimeline(loaded->scenario, e);
            QVERIFY2(tl.error.empty(), qPrintable(file + QStringLiteral(": ") + QString::fromStdString(tl.error)));
            const double expected = e.breakdown.stepSeconds - e.breakdown.stragglerSeconds;
            const double rel = tl.stepSeconds / expected - 1;
            const double bound = loaded->scenario.plan.pp == 1 ? 1e-9 : 0.04;
            QVERIFY2(std::abs(rel) <= bound, qPrintable(QStringLiteral("%1: timeline %2 s, evaluation %3 s (%4%)")
                                                            .arg(file).arg(tl.stepSeconds).arg(expected).arg(100 * rel, 0, 'f', 2)));
            // Every DP collective of the step is drawn, none twice.
            double drawnDp = 0;
            for (const StreamInterval &i : tl.intervals)
                if (i.stream == Stream::DpComm)
                    drawnDp += i.endSeconds - i.startSeconds;
            QVERIFY2(std::abs(drawnDp - e.breakdown.dpCommSeconds) <= 1e-9 + 1e-6 * e.breakdown.dpCommSeconds,
                     qPrintable(QStringLiteral("%1: DP drawn %2 s, evaluation %3 s").arg(file).arg(drawnDp).arg(e.breakdown.dpCommSeconds)));
            ++replayed;
        }
        QVERIFY(replayed > 100);
    }

    void publishedRuns()
    {
        QFile f(dataDir() + QStringLiteral("/expected.json"));
        QVERIFY2(f.open(QIODevice::ReadOnly), "tests/data/validation/expected.json");
        const QJsonObject expected = QJsonDocument::fromJson(f.readAll()).object();
        std::map<QString, std::vector<double>> errors;
        qInfo("%-52s %-22s %12s %12s %8s %5s", "run", "figure", "predicted", "published", "error", "fits");
        for (auto it = expected.begin(); it != expected.end(); ++it) {
            const QJsonObject want = it.value().toObject();
            const QString scenario = want.value(QLatin1String("scenario")).toString(it.key());
            QString why;
            const auto loaded = load(scenario, &why);
            QVERIFY2(loaded, qPrintable(scenario + QStringLiteral(": ") + why));
            const Evaluation e = evaluate(loaded->scenario);
            QVERIFY2(e.feasible, qPrintable(scenario + QStringLiteral(": ") + QString::fromStdString(e.problem.message)));
            const QString source = scenario.section(QLatin1Char('-'), 0, 0)
                                   + (it.key().endsWith(QLatin1String("#memory")) ? QStringLiteral("#memory") : QString());
            for (auto k = want.begin(); k != want.end(); ++k) {
                if (!k.value().isDouble())
                    continue;
                const double published = k.value().toDouble(), predicted = figure(e, k.key());
                QVERIFY2(std::isfinite(predicted), qPrintable(k.key()));
                const double rel = (predicted - published) / published;
                errors[source].push_back(std::abs(rel));
                qInfo("%-52s %-22s %12.4g %12.4g %+7.1f%% %5s", qPrintable(it.key()), qPrintable(k.key()), predicted,
                      published, 100 * rel, e.memory.fits ? "yes" : "no");
            }
            if (!scenario.startsWith(QLatin1String("seed"))) {
                QVERIFY2(e.memory.fits, qPrintable(scenario + QStringLiteral(" really ran but is judged not to fit")));
            }
        }
        for (auto &[source, list] : errors) {
            std::sort(list.begin(), list.end());
            const size_t n = list.size();
            const double median = n % 2 ? list[n / 2] : (list[n / 2 - 1] + list[n / 2]) / 2;
            qInfo("%-14s %2zu runs  median |error| %5.1f%%  worst %5.1f%%", qPrintable(source), n, 100 * median,
                  100 * list.back());
            const auto bound = kBounds.find(source);
            QVERIFY2(bound != kBounds.end(), qPrintable(QStringLiteral("no bound for ") + source));
            QVERIFY2(median <= bound->second.median + 1e-12,
                     qPrintable(QStringLiteral("%1: median %2 above %3").arg(source).arg(median).arg(bound->second.median)));
            QVERIFY2(list.back() <= bound->second.worst + 1e-12,
                     qPrintable(QStringLiteral("%1: worst %2 above %3").arg(source).arg(list.back()).arg(bound->second.worst)));
        }
    }

    // The plan search against the plans the runs' engineers published: the published plan must be in
    // the search space (the best plan found is never slower than it, as the model times both), and
    // the search's best plan and the published one's rank among the fitting plans are printed.
    // Chosen to cover what the space must hold: NeMo's one-layer chunks (Nemotron-4 340B v12 on
    // 12-layer stages, Llama 2 70B v20), Llama 3.1 405B's CP2 on H100 and GB200, 8B data parallel on
    // H100 and B200 with CP, PyTorch FSDP with full recompute.
    void planSearchHoldsThePublishedPlans_data()
    {
        QTest::addColumn<QString>("run");
        for (const char *run : {"dgxc-v250505-nemotron4-340b-fp8-h100-256", "nemo2407-llama2-70b-fp8-h100-64",
                                "dgxc-v250505-llama31-405b-fp8-h100-512", "mlperf-v50-llama31-405b-fp8-gb200-256",
                                "mbridge-2509-llama3-8b-fp8-h100-8", "mlperf-v51-uf-llama31-8b-fp8-b200-64",
                                "fms-llama2-70b-h100-96"})
            QTest::newRow(run) << QString::fromLatin1(run);
    }
    void planSearchHoldsThePublishedPlans()
    {
        QFETCH(QString, run);
        QString why;
        const auto loaded = load(run, &why);
        QVERIFY2(loaded, qPrintable(why));
        PlanSearchOptions options;
        options.top = 1;
        const PlanSearchResult r = searchPlans(loaded->scenario, options);
        QVERIFY(r.currentFeasible);
        QVERIFY2(r.current.fits, "the published plan fits within the search's memory margin");
        QVERIFY(!r.best.empty());
        const PlanCandidate &best = r.best.front();
        const Plan &p = best.scenario.plan;
        const double ratio = best.breakdown.stepSeconds / r.current.breakdown.stepSeconds;
        qInfo("%-42s published plan ranks %lld of %lld fitting; best TP%d PP%d CP%d DP%d v%d b%d, step %.3f of published %.3f s (%.2f)",
              qPrintable(run), r.fasterThanCurrent + 1, r.fitting, p.tp, p.pp, p.cp, p.dp,
              p.schedule == Schedule::Interleaved ? p.virtualStages : 1, best.scenario.training.microBatch,
              best.breakdown.stepSeconds, r.current.breakdown.stepSeconds, ratio);
        QVERIFY2(best.trainSeconds <= r.current.trainSeconds * (1 + 1e-9), "the search misses the published plan");
    }

    // Speedups torchtitan measured between two settings of one run on the same boards, so their
    // 500 W clock (not modelled; absolute figures are not compared) cancels out
    // (tests/data/validation/README.md section E): AsyncTP over vanilla TP
    // (asyncTP_llama3_h100_2025-06_torchtitan.md), torch.compile over eager BF16 and Float8 over
    // compiled BF16 (llama3_h100_202412_torchtitan.md Tables 1 and 3). AsyncTP fuses every forward
    // gather and scatter with its matmul and the backward gathers, but not the backward scatters of
    // input gradients summed over separate projections (evaluate.cpp).
    void torchtitanSpeedupsBetweenSettings()
    {
        struct Row
        {
            const char *name;
            const char *change;
            std::function<void(Scenario &)> from, to;
            double fromTokensPerSecondPerGpu, toTokensPerSecondPerGpu;   // measured
        };
        const auto asyncTp = [](Scenario &s) { s.plan.tpOverlap = true; };
        const auto same = [](Scenario &) {};
        const auto compiled = [](Scenario &s) { s.training.kernels = Kernels::Fused; };
        const auto bf16 = [](Scenario &s) { s.training.precision = Precision::Bf16; };
        const std::vector<Row> rows = {
            {"titan-asynctp-llama31-70b-bf16-h100-256", "AsyncTP", same, asyncTp, 597.3, 652.4},
            {"titan-asynctp-llama31-70b-fp8-h100-256", "AsyncTP", same, asyncTp, 809.8, 942.4},
            {"titan-asynctp-llama31-8b-bf16-h100-64", "AsyncTP", same, asyncTp, 4378, 4809.4},
            {"titan-asynctp-llama31-8b-fp8-h100-64", "AsyncTP", same, asyncTp, 5078.1, 5570.1},
            {"titan-llama31-8b-fsdp-bf16-h100-8", "torch.compile", same, compiled, 5762, 6667},
            {"titan-llama31-8b-fsdp-bf16-h100-128", "torch.compile", same, compiled, 5605, 6514},
            {"titan-llama31-8b-fsdp-compile-fp8-h100-8", "Float8", bf16, same, 6667, 8532},
            {"titan-llama31-8b-fsdp-compile-fp8-h100-128", "Float8", bf16, same, 6514, 8380},
        };
        double worst = 0;
        for (const Row &row : rows) {
            QString why;
            const auto loaded = load(QLatin1String(row.name), &why);
            QVERIFY2(loaded, qPrintable(why));
            Scenario from = loaded->scenario, to = loaded->scenario;
            row.from(from);
            row.to(to);
            const Evaluation a = evaluate(from), b = evaluate(to);
            QVERIFY(a.feasible && b.feasible);
            const double predicted = a.breakdown.stepSeconds / b.breakdown.stepSeconds;
            const double measured = row.toTokensPerSecondPerGpu / row.fromTokensPerSecondPerGpu;
            qInfo("%-44s %-13s speedup predicted %.3f, measured %.3f (%+.1f%%)", row.name, row.change, predicted, measured,
                  100 * (predicted / measured - 1));
            worst = std::max(worst, std::abs(predicted / measured - 1));
        }
        QVERIFY2(worst <= kTorchtitanSpeedupWorst, qPrintable(QStringLiteral("worst %1").arg(worst)));
    }

    // The b200 preset's attention figures against the FlashAttention-4 paper's measured B200
    // kernels (tests/data/kernels/README.md), at the burst clock they were measured at: the fused
    // kernel ("flash", cuDNN under Transformer Engine) within the cuDNN 9.13-9.19 band, 10% either
    // side, and FlashAttention-2 ("flash2", no Blackwell code path) within 15% of its figure.
    void b200AttentionAgainstMeasuredKernels()
    {
        QFile f(QFINDTESTDATA("../data/kernels/fa4-attention-b200.csv"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        std::map<std::tuple<QString, bool, int>, std::pair<double, double>> measured;   // fwd, bwd TFLOP/s
        f.readLine();
        while (!f.atEnd()) {
            const QList<QByteArray> c = f.readLine().trimmed().split(',');
            if (c.size() != 5)
                continue;
            auto &m = measured[{QString::fromLatin1(c[0]), c[2] == "1", c[3].toInt()}];
            (c[1] == "fwd" ? m.first : m.second) = c[4].toDouble();
        }
        QCOMPARE(int(measured.size()), 24);
        ScenarioError error;
        const auto loaded = parseScenario(R"({"format": "trainscope-scenario/1", "workload": {"layers": 1, "hidden": 2048,
            "heads": 16, "kv_heads": 16, "vocab": 32000, "seq_len": 8192}, "training": {"global_batch": 8},
            "cluster": {"gpu": "b200", "gpus": 8}, "plan": {"tp": 1, "pp": 1, "dp": 8}})", &error);
        QVERIFY2(loaded, qPrintable(error.text()));
        Gpu gpu = loaded->scenario.cluster.gpu;
        gpu.sustainedFraction = 1.0;   // benchmarks run at the boost clock
        const KernelSpec spec = kernelSpec(gpu, Precision::Bf16);
        // Forward and backward combined, as the paper counts FLOPs (backward 2.5 x forward).
        const auto combined = [](std::pair<double, double> m) { return 3.5 / (1 / m.first + 2.5 / m.second); };
        for (bool causal : {false, true}) {
            for (int seq : {8192, 16384, 32768}) {
                for (Attention kind : {Attention::Flash, Attention::Flash2}) {
                    Workload w = loaded->scenario.workload;
                    w.seqLen = seq;
                    w.causal = causal;
                    w.attention = kind;
                    const double tokens = 32768;
                    const LayerTimes t = layerTimes(w, Precision::Bf16, tokens, 1, 1, false, spec);
                    const double forwardFlops = 4.0 * (tokens / seq) * w.heads * double(seq) * seq * (w.hidden / w.heads) * (causal ? 0.5 : 1);
                    const double modelTflops = 3.5 * forwardFlops / (t.attentionForward + t.attentionBackward) / 1e12;
                    if (kind == Attention::Flash) {
                        const double low = combined(measured[{QStringLiteral("cudnn-9.13"), causal, seq}]);
                        const double high = combined(measured[{QStringLiteral("cudnn-9.19"), causal, seq}]);
                        qInfo("B200 %-10s %5d flash  %6.0f TFLOP/s, cuDNN 9.13-9.19 %4.0f-%4.0f, FA4 %4.0f", causal ? "causal" : "non-causal",
                              seq, modelTflops, low, high, combined(measured[{QStringLiteral("fa4"), causal, seq}]));
                        QVERIFY2(modelTflops >= 0.9 * std::min(low, high) && modelTflops <= 1.1 * std::max(low, high), qPrintable(QString::number(modelTflops)));
                    } else {
                        const double fa2 = combined(measured[{QStringLiteral("fa2"), causal, seq}]);
                        qInfo("B200 %-10s %5d flash2 %6.0f TFLOP/s, FlashAttention-2 %4.0f", causal ? "causal" : "non-causal", seq, modelTflops, fa2);
                        QVERIFY2(std::abs(modelTflops / fa2 - 1) < 0.15, qPrintable(QString::number(modelTflops / fa2)));
                    }
                }
            }
        }
    }

    // [cuDNN-SDPA] cuDNN's fused attention measured on GB200, GB300 (cuDNN 9.22) and H200 (9.19) with
    // Llama 3.1's grouped-query heads (64 query, 8 key/value, head dim 128) by cudnn-frontend's
    // training benchmark (tests/data/kernels/cudnn-sdpa-llama31.csv), forward and backward combined,
    // against the presets' attention ceilings at the burst clock the benchmark ran at. GB200 and
    // GB300 took their figure from this table (16K, no mask); the other lengths and the causal
    // runs test the sequence ramp and the causal model. H200's ceiling is FlashAttention-3's
    // (the H100 preset's), which this later cuDNN outruns.
    void cudnnAttentionAgainstMeasuredKernels()
    {
        const int rows = forEachAttentionRow("cudnn-sdpa-llama31.csv", false, [](const AttentionRow &r) {
            // From 4K on, within 12% for the GPUs whose figure this is; H200's is another kernel's.
            return r.seq < 4096 || std::abs(r.model / r.measured - 1) < (r.gpu == "h200" ? 0.15 : 0.12);
        });
        QCOMPARE(rows, 30);
    }

    // [cuDNN-SDPA] How cuDNN's fused attention follows the head width, read against the same GPU's
    // Llama 3.1 rows (head dim 128) at the same length and mask, so the ceiling cancels: DeepSeek-V3
    // and Kimi K2.6 (latent attention, query and key 192 wide, value 128), Qwen3.5 (256, forward
    // only), GPT-OSS (64, a 128-token window on GB200 and GB300, 1,024 on H200)
    // (tests/data/kernels/cudnn-sdpa-headdims.csv). Forward and backward apart, FLOPs as the
    // benchmark counts them: 2 (d_qk + d_v) per unmasked score forward, 2 (3 d_qk + 2 d_v) backward.
    void cudnnAttentionAcrossHeadDims()
    {
        std::map<std::tuple<QByteArray, int, bool>, std::pair<double, double>> reference;   // Llama: model / measured, fwd and bwd
        const auto attentionTimes = [](const QByteArray &gpuName, const QByteArray &workload, int seq, bool causal, int batch,
                                       double *forwardSeconds, double *backwardSeconds) {
            // Plain literals: with raw strings that open on a quote here, moc (Qt 6.4) found no class.
            QByteArray json = "{\"format\": \"trainscope-scenario/1\", \"workload\": {\"layers\": 1, \"vocab\": 32000, "
                              "\"seq_len\": 8192, WORKLOAD}, \"training\": {\"global_batch\": 8}, \"cluster\": {\"gpu\": \"GPU\", "
                              "\"gpus\": 8}, \"plan\": {\"tp\": 1, \"pp\": 1, \"dp\": 8}}";
            json.replace("WORKLOAD", workload).replace("GPU", gpuName);
            ScenarioError error;
            const auto loaded = parseScenario(json, &error);
            const auto problem = loaded ? validate(loaded->scenario) : std::nullopt;
            if (!loaded || problem)
                return QString::fromStdString(loaded ? problem->message : error.text().toStdString());
            Gpu gpu = loaded->scenario.cluster.gpu;
            gpu.sustainedFraction = 1.0;   // the benchmark times its calls at the boost clock
            Workload w = loaded->scenario.workload;
            w.seqLen = seq;
            w.causal = causal;
            const LayerTimes t = layerTimes(w, Precision::Bf16, double(batch) * seq, 1, 1, false, kernelSpec(gpu, Precision::Bf16));
            *forwardSeconds = t.attentionForward;
            *backwardSeconds = t.attentionBackward;
            return QString();
        };
        // Scores the benchmark counts (flops() in benchmark_single_sdpa.py).
        const auto scores = [](double seq, bool causal, double window) {
            if (!causal)
                return seq * seq;
            if (window > 0 && window < seq)
                return window * (window + 1) / 2 + (seq - window) * window;
            return seq * (seq + 1) / 2;
        };
        {
            QFile f(QFINDTESTDATA("../data/kernels/cudnn-sdpa-llama31.csv"));
            QVERIFY(f.open(QIODevice::ReadOnly));
            f.readLine();
            while (!f.atEnd()) {
                const QList<QByteArray> c = f.readLine().trimmed().split(',');
                if (c.size() != 10)
                    continue;
                const int seq = c[2].toInt(), batch = c[4].toInt(), heads = c[5].toInt(), d = c[7].toInt();
                const bool causal = c[3] == "1";
                double fwd = 0, bwd = 0;
                const QString why = attentionTimes(c[0], "\"hidden\": " + QByteArray::number(heads * d) + ", \"heads\": " + c[5] + ", \"kv_heads\": " + c[6],
                                                   seq, causal, batch, &fwd, &bwd);
                QVERIFY2(why.isEmpty(), qPrintable(why));
                const double base = 2.0 * batch * heads * scores(seq, causal, 0);
                reference[{c[0], seq, causal}] = {base * 2 * d / fwd / 1e12 / c[8].toDouble(), base * 5 * d / bwd / 1e12 / c[9].toDouble()};
            }
        }
        QFile f(QFINDTESTDATA("../data/kernels/cudnn-sdpa-headdims.csv"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        f.readLine();
        int rows = 0;
        std::map<QByteArray, std::vector<double>> relative;   // model / measured over Llama's, per model and pass
        std::map<QByteArray, std::vector<double>> perGpu;     // the same per GPU, printed (GB300's windowed forward +15% to +24%)
        while (!f.atEnd()) {
            const QList<QByteArray> c = f.readLine().trimmed().split(',');
            if (c.size() != 13)
                continue;
            ++rows;
            const QByteArray gpu = c[0], model = c[1];
            const int seq = c[2].toInt(), batch = c[4].toInt(), heads = c[5].toInt(), dqk = c[7].toInt(), dv = c[8].toInt(), window = c[9].toInt();
            const bool causal = c[3] == "1";
            QByteArray workload = "\"heads\": " + c[5] + ", \"kv_heads\": " + c[6] + ", \"hidden\": 4096";
            if (dqk != dv)   // latent attention: head_dim + qk_rope_head_dim for Q and K, v_head_dim for V
                workload += ", \"head_dim\": " + QByteArray::number(dv) + ", \"v_head_dim\": " + QByteArray::number(dv)
                            + ", \"qk_rope_head_dim\": " + QByteArray::number(dqk - dv) + ", \"q_lora_rank\": 1536, \"kv_lora_rank\": 512";
            else
                workload += ", \"head_dim\": " + QByteArray::number(dv);
            if (window > 0)
                workload += ", \"sliding_window\": " + QByteArray::number(window);
            double fwd = 0, bwd = 0;
            const QString why = attentionTimes(gpu, workload, seq, causal, batch, &fwd, &bwd);
            QVERIFY2(why.isEmpty(), qPrintable(why));
            const double base = 2.0 * batch * heads * scores(seq, causal, window);
            const double modelFwd = base * (dqk + dv) / fwd / 1e12, modelBwd = base * (3 * dqk + 2 * dv) / bwd / 1e12;
            const double measuredFwd = c[11].toDouble(), measuredBwd = c[12].toDouble();
            const auto ref = reference.find({gpu, seq, causal});
            QVERIFY(ref != reference.end());
            const double relFwd = modelFwd / measuredFwd / ref->second.first;
            const double relBwd = measuredBwd > 0 ? modelBwd / measuredBwd / ref->second.second : 0;
            qInfo("%-6s %-8s d %3d/%3d w %4d %5d %-10s fwd model %5.0f measured %5.0f (%+4.0f%%, %+4.0f%% of Llama's) bwd model %5.0f measured %5.0f (%+4.0f%%, %+4.0f%%)",
                  gpu.constData(), model.constData(), dqk, dv, window, seq, causal ? "causal" : "non-causal", modelFwd, measuredFwd,
                  100 * (modelFwd / measuredFwd - 1), 100 * (relFwd - 1), modelBwd, measuredBwd, measuredBwd > 0 ? 100 * (modelBwd / measuredBwd - 1) : 0.0,
                  100 * (relBwd - 1));
            if (seq >= 4096) {
                // cuDNN's windowed forward falls 38% from 16K to 32K on both Blackwells (167 to 104
                // TFLOP/s on GB200) at the same work per query block: printed, not asserted.
                const bool windowed32k = window > 0 && seq >= 32768;
                if (!windowed32k) {
                    perGpu[model + " " + gpu + " fwd"].push_back(relFwd);
                    relative[model + " fwd"].push_back(relFwd);
                    QVERIFY2(std::abs(relFwd - 1) < 0.25, qPrintable(QStringLiteral("%1 %2 %3 fwd").arg(QLatin1String(gpu), QLatin1String(model)).arg(seq)));
                }
                if (measuredBwd > 0) {
                    perGpu[model + " " + gpu + " bwd"].push_back(relBwd);
                    relative[model + " bwd"].push_back(relBwd);
                    QVERIFY2(std::abs(relBwd - 1) < 0.2, qPrintable(QStringLiteral("%1 %2 %3 bwd").arg(QLatin1String(gpu), QLatin1String(model)).arg(seq)));
                }
            }
        }
        QCOMPARE(rows, 65);
        for (auto &[name, values] : perGpu) {
            std::sort(values.begin(), values.end());
            qInfo("%-20s model / measured over Llama's, 4K-32K: median %+.1f%%", name.constData(), 100 * (values[values.size() / 2] - 1));
        }
        QCOMPARE(int(relative.size()), 7);
        for (auto &[name, values] : relative) {
            std::sort(values.begin(), values.end());
            const double median = values[values.size() / 2];
            qInfo("%-12s model / measured over Llama's, 4K-32K: median %+.1f%%, range %+.1f%% .. %+.1f%%", name.constData(),
                  100 * (median - 1), 100 * (values.front() - 1), 100 * (values.back() - 1));
            QVERIFY2(std::abs(median - 1) < 0.08, name.constData());
        }
    }

    // [cuDNN-SDPA] FP8 attention (training.fp8_attention): cuDNN's FP8 fused attention with Llama
    // 3.1's heads on GB200 and GB300 (per-tensor FP8 and MXFP8) and H200 (per-tensor), the default
    // non-deterministic backward (tests/data/kernels/cudnn-sdpa-llama31-fp8.csv). The presets'
    // attention_efficiency_fp8 / _mxfp8 are set at the causal 8K row (what a Llama 3 training
    // sequence runs) so that the model's FP8 attention over its BF16 attention is the measured FP8
    // over BF16 ratio there (GB200 1.14 and 1.02, GB300 1.30 and 1.05, H200 0.90): checked within 1%.
    // The causal rows from 4K check the rest: FP8 kernels ramp more steeply with length than the
    // block-overhead term fit to BF16, and the BF16 figure is read at 16K without mask (Blackwell
    // -11% to +7%). Hopper's FP8 backward under the causal mask is slower than its BF16 one and
    // falls with length (471 TFLOP/s at 4K, 374 at 16K, against BF16's 541 at 8K): FP8 attention
    // on H100 and H200 lengthens the step, as measured; H200 -22% at 4K to +12% at 32K. The
    // non-causal rows are printed only.
    void cudnnFp8AttentionAgainstMeasuredKernels()
    {
        std::map<std::pair<QByteArray, int>, std::pair<double, double>> bf16Causal;   // (gpu, seq) -> model, measured
        QVERIFY(forEachAttentionRow("cudnn-sdpa-llama31.csv", false, [&](const AttentionRow &r) {
                    if (r.causal)
                        bf16Causal[{r.gpu, r.seq}] = {r.model, r.measured};
                    return true;
                })
                > 0);
        const int rows = forEachAttentionRow("cudnn-sdpa-llama31-fp8.csv", true, [&](const AttentionRow &r) {
            if (!r.causal || r.seq < 4096)
                return true;
            if (r.seq == 8192) {   // the row the figures are set at: FP8 / BF16 as measured
                const auto &[bf16Model, bf16Measured] = bf16Causal.at({r.gpu, r.seq});
                if (std::abs((r.model / bf16Model) / (r.measured / bf16Measured) - 1) >= 0.01)
                    return false;
            }
            return std::abs(r.model / r.measured - 1) < (r.gpu == "h200" ? 0.25 : 0.15);
        });
        QCOMPARE(rows, 50);
    }

    // [cuDNN-NORM] The share of nominal HBM bandwidth streaming kernels reach
    // (KernelDefaults::hbmEfficiency): cuDNN's fused RMSNorm and LayerNorm, forward and backward, on
    // H200, GB200 and GB300 for 15 models' shapes each (tests/data/kernels/cudnn-norms.csv). Per GPU
    // and pass, time = bytes / bandwidth + a fixed time, fit by least squares over the shapes.
    void streamingKernelsReachTheHbmShare()
    {
        QFile f(QFINDTESTDATA("../data/kernels/cudnn-norms.csv"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        f.readLine();
        std::map<std::pair<QString, int>, std::vector<std::pair<double, double>>> samples;   // (gpu, pass) -> (bytes, seconds)
        while (!f.atEnd()) {
            const QList<QByteArray> c = f.readLine().trimmed().split(',');
            if (c.size() != 9)
                continue;
            for (int pass = 0; pass < 2; ++pass) {
                const double seconds = c[5 + pass].toDouble() * 1e-3;
                samples[{QString::fromLatin1(c[0]), pass}].push_back({c[7 + pass].toDouble() * 1e9 * seconds, seconds});
            }
        }
        QCOMPARE(int(samples.size()), 6);
        const std::map<QString, double> nominal = {{QStringLiteral("h200"), 4.8e12}, {QStringLiteral("gb200"), 8e12},
                                                   {QStringLiteral("gb300"), 8e12}};
        for (const auto &[key, points] : samples) {
            QCOMPARE(int(points.size()), 15);
            double mb = 0, mt = 0;
            for (const auto &[bytes, seconds] : points) {
                mb += bytes / points.size();
                mt += seconds / points.size();
            }
            double sxx = 0, sxy = 0;
            for (const auto &[bytes, seconds] : points) {
                sxx += (bytes - mb) * (bytes - mb);
                sxy += (bytes - mb) * (seconds - mt);
            }
            const double bandwidth = sxx / sxy, fixed = mt - mb / bandwidth;
            const double share = bandwidth / nominal.at(key.first);
            qInfo("%-6s %s: %.2f TB/s = %.3f of nominal (model %.2f), fixed %.1f us", qPrintable(key.first), key.second ? "backward" : "forward ",
                  bandwidth / 1e12, share, kernelDefaults().hbmEfficiency, fixed * 1e6);
            QVERIFY2(std::abs(share / kernelDefaults().hbmEfficiency - 1) < 0.08, qPrintable(QString::number(share)));
        }
    }

    // [TE-GEMM] The quantization each FP8 recipe adds to a layer's 12 GEMMs, measured by
    // TransformerEngine on H200 NVL and B300 (tests/data/kernels/te-gemm-profiling.csv), against
    // the cast traffic of model/kernels.cpp: the benchmark quantizes both operands of every call,
    // each with the copies its recipe keeps. Current scaling must show its second read, MXFP8 its
    // separately quantized column-wise copy.
    void fp8CastTrafficAgainstTransformerEngineProfiling()
    {
        QFile f(QFINDTESTDATA("../data/kernels/te-gemm-profiling.csv"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        std::map<std::tuple<QString, QString, QString>, double> layerMs;   // gpu, mode, recipe
        f.readLine();
        while (!f.atEnd()) {
            const QList<QByteArray> c = f.readLine().trimmed().split(',');
            if (c.size() == 7)
                layerMs[{QString::fromLatin1(c[0]), QString::fromLatin1(c[1]), QString::fromLatin1(c[2])}] = c[6].toDouble();
        }
        QCOMPARE(int(layerMs.size()), 15);
        const double M = 15872, h = 4096, ffn = 16384;
        const double shapes[12][3] = {{M, h, 3 * h}, {M, h, h}, {M, h, ffn}, {M, ffn, h},        // forward
                                      {M, 3 * h, h}, {M, h, h}, {M, ffn, h}, {M, h, ffn},        // input gradient
                                      {h, M, 3 * h}, {h, M, h}, {h, M, ffn}, {ffn, M, h}};       // weight gradient
        double quantizedElements = 0;   // the input M x K and the weight K x N of each call
        for (const auto &g : shapes)
            quantizedElements += g[0] * g[1] + g[1] * g[2];
        const auto presetGpu = [](const char *name) {
            ScenarioError error;
            const QByteArray json = QByteArray(R"({"format": "trainscope-scenario/1", "workload": {"preset": "llama3-8b"},
                "training": {"global_batch": 8}, "cluster": {"gpu": "GPU", "gpus": 8}, "plan": {"tp": 1, "pp": 1, "dp": 8}})")
                                        .replace("GPU", name);
            const auto loaded = parseScenario(json, &error);
            return loaded ? loaded->scenario.cluster.gpu : Gpu{};
        };
        const Gpu h200 = presetGpu("h200");   // H200 NVL: the same GH100 and 4.8 TB/s HBM3e, at 600 W
        QCOMPARE(h200.name, std::string("h200"));
        const Gpu b300 = presetGpu("b300");
        QCOMPARE(b300.name, std::string("b300"));
        // [TE-ACC] Hopper's presets carry the fast-accumulation FP8 figure their forward GEMMs run
        // at; Blackwell's do not (it accumulates in FP32 either way).
        QVERIFY(h200.gemmEfficiencyFp8Fast > h200.gemmEfficiencyFp8);
        QVERIFY(presetGpu("h100-sxm").gemmEfficiencyFp8Fast > presetGpu("h100-sxm").gemmEfficiencyFp8);
        QCOMPARE(b300.gemmEfficiencyFp8Fast, 0.0);
        struct Case { const char *gpu; const Gpu *preset; Fp8Recipe recipe; const char *name; const char *kernel; };
        const Case cases[] = {{"h200nvl", &h200, Fp8Recipe::Delayed, "delayed", "current"},
                              {"h200nvl", &h200, Fp8Recipe::Tensorwise, "current", "current"},
                              {"b300", &b300, Fp8Recipe::Delayed, "delayed", "current"},
                              {"b300", &b300, Fp8Recipe::Tensorwise, "current", "current"},
                              {"b300", &b300, Fp8Recipe::Mxfp8, "mxfp8", "mxfp8"}};
        for (const Case &c : cases) {
            const KernelSpec spec = kernelSpec(*c.preset, Precision::Fp8, c.recipe);
            const double modelMs = 1e3 * quantizedElements * fp8CastBytesPerElement(spec) / spec.hbmBytesPerSecond;
            const double measuredMs = layerMs[{QString::fromLatin1(c.gpu), QStringLiteral("autocast"), QString::fromLatin1(c.name)}]
                                      - layerMs[{QString::fromLatin1(c.gpu), QStringLiteral("prequant"), QString::fromLatin1(c.kernel)}];
            qInfo("%-8s %-8s quantization per layer: model %.2f ms (%.3g B/element), TransformerEngine %.2f ms (%+.0f%%)", c.gpu,
                  c.name, modelMs, fp8CastBytesPerElement(spec), measuredMs, 100 * (modelMs / measuredMs - 1));
            QVERIFY2(std::abs(modelMs / measuredMs - 1) < 0.25, qPrintable(QString::number(modelMs / measuredMs)));
        }
        {
            // [NVFP4] The 12 inputs are cast with the Hadamard-transformed column-wise copy (three
            // reads); the 12 weights, 2D-scaled and not transformed, with two (amax, cast).
            const KernelSpec spec = kernelSpec(b300, Precision::Fp8, Fp8Recipe::Nvfp4);
            double inputs = 0, weights = 0;
            for (const auto &g : shapes) {
                inputs += g[0] * g[1];
                weights += g[1] * g[2];
            }
            const double rht = kernelDefaults().nvfp4HadamardReadBytes;
            const double modelMs = 1e3 * (inputs * fp8CastBytesPerElement(spec) + weights * (fp8CastBytesPerElement(spec) - rht))
                                   / spec.hbmBytesPerSecond;
            const double measuredMs = layerMs[{QStringLiteral("b300"), QStringLiteral("autocast"), QStringLiteral("nvfp4")}]
                                      - layerMs[{QStringLiteral("b300"), QStringLiteral("prequant"), QStringLiteral("nvfp4")}];
            qInfo("b300     nvfp4    quantization per layer: model %.2f ms (%.3g B/element with the transform), TransformerEngine %.2f ms (%+.0f%%)",
                  modelMs, fp8CastBytesPerElement(spec), measuredMs, 100 * (modelMs / measuredMs - 1));
            QVERIFY2(std::abs(modelMs / measuredMs - 1) < 0.25, qPrintable(QString::number(modelMs / measuredMs)));
        }
        // The GEMMs themselves, operands already quantized: the b300 preset's sustained ceilings
        // (MAMF x MSMF/MAMF) with tile and wave quantization, against the same layer measured with
        // CUDA events over 100 back-to-back iterations (the board at its power limit).
        // NVFP4's ceiling (b300 gemm_efficiency_fp4) is read from this row, so it only checks the
        // tile, wave and epilogue terms hold it across the 12 shapes.
        for (const auto &[precision, recipe, name] : {std::tuple{Precision::Bf16, Fp8Recipe::Delayed, "bf16"},
                                                      std::tuple{Precision::Fp8, Fp8Recipe::Tensorwise, "current"},
                                                      std::tuple{Precision::Fp8, Fp8Recipe::Mxfp8, "mxfp8"},
                                                      std::tuple{Precision::Fp8, Fp8Recipe::Nvfp4, "nvfp4"}}) {
            const KernelSpec spec = kernelSpec(b300, precision, recipe);
            double modelSeconds = 0;
            for (const auto &g : shapes)
                modelSeconds += gemmSeconds(g[0], g[2], g[1], spec);
            const double measuredMs = layerMs[{QStringLiteral("b300"), QStringLiteral("prequant"), QString::fromLatin1(name)}];
            qInfo("b300     %-8s GEMMs per layer, quantized beforehand: model %.2f ms, TransformerEngine %.2f ms (%+.0f%%)", name,
                  1e3 * modelSeconds, measuredMs, 100 * (1e3 * modelSeconds / measuredMs - 1));
            QVERIFY2(std::abs(1e3 * modelSeconds / measuredMs - 1) < 0.10, name);
        }
    }

    // Configurations that cannot run must not be shown as fitting.
    void impossibleConfigurationsDoNotFit_data()
    {
        QTest::addColumn<QByteArray>("json");
        // Korthikanti 2022 Table 3 baselines: 530B and 1T without sequence parallelism or recompute.
        QTest::newRow("530B no SP, no recompute") << QByteArray(R"({"format": "trainscope-scenario/1",
            "workload": {"preset": "megatron-529.6b", "attention": "materialized"},
            "training": {"global_batch": 2240, "micro_batch": 1, "precision": "fp16", "recompute": "none"},
            "cluster": {"preset": "dgx-a100-superpod", "gpus": 2240},
            "plan": {"tp": 8, "pp": 35, "sequence_parallel": false}})");
        QTest::newRow("1T no SP, no recompute") << QByteArray(R"({"format": "trainscope-scenario/1",
            "workload": {"preset": "megatron-1t", "attention": "materialized"},
            "training": {"global_batch": 2048, "micro_batch": 1, "precision": "fp16", "recompute": "none"},
            "cluster": {"preset": "dgx-a100-superpod", "gpus": 2048},
            "plan": {"tp": 8, "pp": 64, "sequence_parallel": false}})");
        QTest::newRow("70B plain DP on 8 GPUs") << QByteArray(R"({"format": "trainscope-scenario/1",
            "workload": {"preset": "llama3-70b"}, "training": {"global_batch": 8, "micro_batch": 1},
            "cluster": {"preset": "dgx-h100-superpod", "gpus": 8}, "plan": {"tp": 1, "pp": 1, "zero": 0}})");
        QTest::newRow("8B Adam on one 80 GB GPU") << QByteArray(R"({"format": "trainscope-scenario/1",
            "workload": {"preset": "llama3-8b"}, "training": {"global_batch": 1, "micro_batch": 1},
            "cluster": {"preset": "dgx-h100-superpod", "gpus": 1, "gpus_per_node": 1}, "plan": {"tp": 1, "pp": 1}})");
    }
    void impossibleConfigurationsDoNotFit()
    {
        QFETCH(QByteArray, json);
        ScenarioError error;
        const auto loaded = parseScenario(json, &error);
        QVERIFY2(loaded, qPrintable(error.text()));
        const Evaluation e = evaluate(loaded->scenario);
        QVERIFY2(e.feasible, e.problem.message.c_str());
        qInfo("%s: %.1f GB of %.1f GB", QTest::currentDataTag(), e.memory.totalBytes / 1e9, e.memory.capacityBytes / 1e9);
        QVERIFY(!e.memory.fits);
    }
};

QTEST_GUILESS_MAIN(TestValidation)
#include "tst_validation.moc"
