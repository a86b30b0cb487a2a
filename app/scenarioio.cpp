// SPDX-License-Identifier: MIT
#include "scenarioio.h"

#include "presets.h"
#include "quantity.h"
#include "economics.h"
#include "shape.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QSet>

#include <cmath>
#include <limits>

namespace ts {

namespace {

// node_link: a GPU preset's node NVLink preset, which the GPU picker switches to (scenarioedit.cpp).
const QLatin1String kMeta[] = {QLatin1String("name"), QLatin1String("label"), QLatin1String("source"),
                               QLatin1String("tier"), QLatin1String("node_link")};

bool isMeta(const QString &key)
{
    for (const QLatin1String &m : kMeta)
        if (key == m)
            return true;
    return false;
}

// Reads one JSON object (a section, or a preset merged under it) with a key prefix for messages,
// and reports the first unknown key.
class Section
{
public:
    Section(QJsonObject object, QString prefix, ScenarioError *error)
        : m_object(std::move(object)), m_prefix(std::move(prefix)), m_error(error)
    {}

    bool has(const char *key) const { return m_object.contains(QLatin1String(key)); }
    QJsonValue value(const char *key) const { return m_object.value(QLatin1String(key)); }
    QString key(const char *k) const { return m_prefix + QLatin1String(k); }
    bool failed() const { return m_failed; }

    bool fail(const QString &k, const QString &message)
    {
        if (!m_failed) {
            m_error->key = k;
            m_error->message = message;
        }
        m_failed = true;
        return false;
    }

    template<typename T>
    void integer(const char *k, T *out, double max = 1e12)
    {
        m_known.insert(QLatin1String(k));
        if (!has(k) || m_failed)
            return;
        double x = 0;
        QString why;
        if (!parseQuantity(value(k), Dimension::Count, &x, &why)) {
            fail(key(k), why);
            return;
        }
        if (x != std::floor(x) || std::abs(x) > max) {
            fail(key(k), QStringLiteral("must be a whole number up to %1 (got %2)").arg(max).arg(x));
            return;
        }
        *out = T(x);
    }
    void quantity(const char *k, Dimension d, double *out)
    {
        m_known.insert(QLatin1String(k));
        if (!has(k) || m_failed)
            return;
        QString why;
        if (!parseQuantity(value(k), d, out, &why))
            fail(key(k), why);
    }
    void boolean(const char *k, bool *out)
    {
        if (typed(k, value(k).isBool(), QStringLiteral("must be true or false")))
            *out = value(k).toBool();
    }
    void text(const char *k, std::string *out)
    {
        if (typed(k, value(k).isString(), QStringLiteral("must be text")))
            *out = value(k).toString().toStdString();
    }
    // Registers k; true when it is given, nothing failed so far and it has the JSON type wanted.
    bool typed(const char *k, bool rightType, const QString &otherwise)
    {
        m_known.insert(QLatin1String(k));
        if (!has(k) || m_failed)
            return false;
        if (!rightType)
            fail(key(k), otherwise);
        return rightType;
    }
    template<typename E, size_t N>
    void choice(const char *k, const std::pair<const char *, E> (&options)[N], E *out)
    {
        m_known.insert(QLatin1String(k));
        if (!has(k) || m_failed)
            return;
        const QString text = value(k).toString();
        QStringList allowed;
        for (const auto &[name, e] : options) {
            if (text == QLatin1String(name)) {
                *out = e;
                return;
            }
            allowed << QLatin1String(name);
        }
        fail(key(k), QStringLiteral("must be one of %1 (got %2)")
                         .arg(allowed.join(QLatin1String("|")),
                              value(k).isString() ? QStringLiteral("\"%1\"").arg(text)
                                                  : QString::fromUtf8(QJsonDocument(QJsonArray{value(k)}).toJson(QJsonDocument::Compact))));
    }
    void known(const char *k) { m_known.insert(QLatin1String(k)); }
    bool checkUnknown()
    {
        if (m_failed)
            return false;
        for (auto it = m_object.begin(); it != m_object.end(); ++it)
            if (!m_known.contains(it.key()) && !isMeta(it.key()))
                return fail(m_prefix + it.key(), QStringLiteral("unknown key (allowed: %1)").arg(allowedKeys()));
        return true;
    }
    QString allowedKeys() const
    {
        QStringList keys(m_known.begin(), m_known.end());
        keys.sort();
        return keys.join(QLatin1String(", "));
    }

private:
    QJsonObject m_object;
    QString m_prefix;
    ScenarioError *m_error;
    QSet<QString> m_known;
    bool m_failed = false;
};

// A section with an optional "preset": the preset's fields first, the section's on top.
std::optional<QJsonObject> withPreset(const QJsonObject &section, Presets::Kind kind, const QString &key,
                                      ScenarioError *error)
{
    const QJsonValue preset = section.value(QLatin1String("preset"));
    if (preset.isUndefined())
        return section;
    const QString name = preset.toString();
    const QJsonObject base = Presets::builtin().find(kind, name);
    if (!preset.isString() || base.isEmpty()) {
        *error = {key, QStringLiteral("unknown %1 preset \"%2\" (known: %3)")
                           .arg(Presets::kindLabel(kind), name,
                                Presets::builtin().names(kind).join(QLatin1String(", ")))};
        return std::nullopt;
    }
    QJsonObject merged = base;
    for (auto it = section.begin(); it != section.end(); ++it)
        if (it.key() != QLatin1String("preset"))
            merged.insert(it.key(), it.value());
    return merged;
}

const std::pair<const char *, MlpKind> kMlp[] = {{"gelu", MlpKind::Gelu}, {"swiglu", MlpKind::SwiGlu}};
const std::pair<const char *, Attention> kAttention[] = {
    {"flash", Attention::Flash}, {"flash2", Attention::Flash2}, {"materialized", Attention::Materialized}, {"triton", Attention::Triton}};
// Megatron-LM's --cp-comm-type spellings, and Transformer Engine's "all_gather".
const std::pair<const char *, CpComm> kCpComm[] = {
    {"p2p", CpComm::P2p}, {"allgather", CpComm::AllGather}, {"all_gather", CpComm::AllGather}, {"a2a", CpComm::A2a}};
const std::pair<const char *, EpDispatcher> kEpDispatcher[] = {
    {"alltoall", EpDispatcher::AllToAll}, {"deepep", EpDispatcher::DeepEp}, {"hybridep", EpDispatcher::HybridEp}};
const std::pair<const char *, GradReduce> kGradReduce[] = {{"auto", GradReduce::Auto}, {"fp32", GradReduce::Fp32},
                                                           {"bf16", GradReduce::Bf16}};
const std::pair<const char *, Framework> kFramework[] = {{"auto", Framework::Auto}, {"megatron", Framework::Megatron},
                                                         {"deepspeed", Framework::DeepSpeed}, {"fsdp", Framework::Fsdp}};
// "nvfp4" (read in readTraining: fp8 with the nvfp4 recipe) is listed so that a wrong value's
// message names it.
const std::pair<const char *, Precision> kPrecision[] = {
    {"fp32", Precision::Fp32}, {"bf16", Precision::Bf16}, {"fp16", Precision::Fp16}, {"fp8", Precision::Fp8}, {"nvfp4", Precision::Fp8}};
const std::pair<const char *, Fp8Recipe> kFp8Recipe[] = {{"delayed", Fp8Recipe::Delayed},
                                                         {"tensorwise", Fp8Recipe::Tensorwise},
                                                         {"mxfp8", Fp8Recipe::Mxfp8},
                                                         {"blockwise", Fp8Recipe::Blockwise},
                                                         {"nvfp4", Fp8Recipe::Nvfp4}};
const std::pair<const char *, NormKind> kNorm[] = {
    {"auto", NormKind::Auto}, {"layernorm", NormKind::LayerNorm}, {"rmsnorm", NormKind::RmsNorm}};
const std::pair<const char *, Kernels> kKernels[] = {
    {"auto", Kernels::Auto}, {"fused", Kernels::Fused}, {"eager", Kernels::Eager}};
const std::pair<const char *, CrossEntropy> kCrossEntropy[] = {{"auto", CrossEntropy::Auto},
                                                               {"megatron", CrossEntropy::Megatron},
                                                               {"pytorch", CrossEntropy::PyTorch},
                                                               {"fused", CrossEntropy::Fused}};
const std::pair<const char *, OptimizerStates> kOptimizerStates[] = {{"fp32", OptimizerStates::Fp32},
                                                                     {"bf16", OptimizerStates::Bf16},
                                                                     {"bf16_moments", OptimizerStates::Bf16Moments}};
const std::pair<const char *, Recompute> kRecompute[] = {
    {"none", Recompute::None}, {"selective", Recompute::Selective}, {"full", Recompute::Full}};
// Megatron-Core's recompute_modules names (model: recomputeModuleName).
unsigned recomputeModuleFlag(const QString &name)
{
    for (unsigned flag = 1; flag <= kRecomputeSharedExperts; flag <<= 1)
        if (name == QLatin1String(recomputeModuleName(flag)))
            return flag;
    return 0;
}
QString recomputeModuleNames()
{
    return QString::fromStdString(recomputeModulesText(kRecomputeAllModules));
}
QJsonArray recomputeModuleList(unsigned modules)
{
    QJsonArray list;
    for (unsigned flag = 1; flag <= kRecomputeSharedExperts; flag <<= 1)
        if (modules & flag)
            list.append(QLatin1String(recomputeModuleName(flag)));
    return list;
}
const std::pair<const char *, Schedule> kSchedule[] = {{"gpipe", Schedule::GPipe},
                                                       {"1f1b", Schedule::OneFOneB},
                                                       {"interleaved", Schedule::Interleaved},
                                                       {"zb-h1", Schedule::ZeroBubbleH1},
                                                       {"dualpipev", Schedule::DualPipeV}};
const std::pair<const char *, Transport> kTransport[] = {{"rdma", Transport::Rdma}, {"tcp", Transport::Tcp}};
const std::pair<const char *, IntraFabric> kIntraFabric[] = {
    {"auto", IntraFabric::Auto}, {"nvswitch", IntraFabric::NvSwitch}, {"pcie", IntraFabric::Pcie}, {"mesh", IntraFabric::Mesh}};
const std::pair<const char *, Nvls> kNvls[] = {{"auto", Nvls::Auto}, {"on", Nvls::On}, {"off", Nvls::Off}};

bool readWorkload(const QJsonValue &value, LoadedScenario *out, ScenarioError *error)
{
    const QString prefix = QStringLiteral("workload.");
    if (!value.isObject()) {
        *error = {QStringLiteral("workload"), QStringLiteral("must be an object")};
        return false;
    }
    const QJsonObject raw = value.toObject();
    auto merged = withPreset(raw, Presets::Models, prefix + QLatin1String("preset"), error);
    if (!merged)
        return false;
    Section s(*merged, prefix, error);
    s.known("preset");
    Workload &w = out->scenario.workload;
    if (merged->contains(QLatin1String("name")))
        w.name = merged->value(QLatin1String("name")).toString().toStdString();
    double parameters = 0;
    s.quantity("parameters", Dimension::Count, &parameters);
    s.integer("vocab", &w.vocab);
    s.integer("seq_len", &w.seqLen);
    const bool shapeGiven = merged->contains(QLatin1String("layers")) || merged->contains(QLatin1String("hidden"));
    if (!s.failed() && parameters > 0 && !shapeGiven) {
        if (!(parameters >= 1e6 && parameters <= 1e14))
            return s.fail(s.key("parameters"), QStringLiteral("must be between 1e6 and 1e14 to derive a shape (got %1)")
                                                   .arg(parameters));
        const DerivedShape derived = deriveShape(parameters, w.vocab, w.seqLen);
        w = derived.workload;
        out->notes << QString::fromStdString(derived.description);
    } else if (!s.failed() && parameters < 0) {
        return s.fail(s.key("parameters"), QStringLiteral("must be positive"));
    }
    s.integer("layers", &w.layers);
    s.integer("hidden", &w.hidden);
    s.integer("heads", &w.heads);
    const bool kvGiven = merged->contains(QLatin1String("kv_heads"));
    s.integer("kv_heads", &w.kvHeads);
    if (!kvGiven && merged->contains(QLatin1String("heads")))
        w.kvHeads = w.heads;
    s.integer("head_dim", &w.headDim);
    s.boolean("qk_norm", &w.qkNorm);
    s.integer("sliding_window", &w.slidingWindow, 1e8);
    s.integer("full_attention_every", &w.fullAttentionEvery, 1e5);
    s.quantity("rope_attention_factor", Dimension::Ratio, &w.ropeAttentionFactor);
    s.boolean("expert_bias", &w.expertBias);
    s.quantity("glu_clamp", Dimension::Ratio, &w.gluClamp);
    s.integer("experts", &w.experts);
    s.integer("experts_per_token", &w.expertsPerToken);
    s.integer("moe_ffn_hidden", &w.moeFfnHidden);
    s.integer("first_dense_layers", &w.firstDenseLayers, 1e7);
    s.integer("moe_shared_ffn_hidden", &w.sharedExpertFfn, 1e8);
    s.integer("q_lora_rank", &w.qLoraRank, 1e8);
    s.integer("kv_lora_rank", &w.kvLoraRank, 1e8);
    s.integer("qk_rope_head_dim", &w.ropeHeadDim, 1e8);
    s.integer("v_head_dim", &w.vHeadDim, 1e8);
    s.integer("mtp_layers", &w.mtpLayers, 1e6);
    s.integer("moe_router_groups", &w.moeRouterGroups, 1e6);
    s.integer("moe_router_group_topk", &w.moeRouterGroupTopk, 1e6);
    const bool ffnGiven = merged->contains(QLatin1String("ffn_hidden"));
    s.integer("ffn_hidden", &w.ffnHidden);
    if (!ffnGiven && merged->contains(QLatin1String("hidden")))
        w.ffnHidden = 4 * w.hidden;
    s.choice("mlp", kMlp, &w.mlp);
    s.boolean("tied_embeddings", &w.tiedEmbeddings);
    s.boolean("learned_positions", &w.learnedPositions);
    s.choice("attention", kAttention, &w.attention);
    s.choice("norm", kNorm, &w.norm);
    s.boolean("causal", &w.causal);
    s.text("accuracy", &w.accuracy);
    return s.checkUnknown();
}

bool readTraining(const QJsonValue &value, Training *tr, ScenarioError *error)
{
    if (!value.isObject()) {
        *error = {QStringLiteral("training"), QStringLiteral("must be an object")};
        return false;
    }
    Section s(value.toObject(), QStringLiteral("training."), error);
    s.integer("global_batch", &tr->globalBatch);
    s.integer("micro_batch", &tr->microBatch);
    if (s.value("precision").toString() == QLatin1String("nvfp4")) {
        // Megatron-Bridge's compute dtype nvfp4: Transformer Engine's NVFP4 recipe, which runs
        // through the FP8 autocast like the FP8 recipes (saved as fp8 with fp8_recipe nvfp4).
        s.known("precision");
        tr->precision = Precision::Fp8;
        tr->fp8Recipe = Fp8Recipe::Nvfp4;
        if (s.has("fp8_recipe") && s.value("fp8_recipe").toString() != QLatin1String("nvfp4"))
            return s.fail(s.key("fp8_recipe"), QStringLiteral("precision nvfp4 runs the nvfp4 recipe: drop fp8_recipe or set "
                                                              "it to nvfp4 (got \"%1\")")
                                                   .arg(s.value("fp8_recipe").toString()));
    } else {
        s.choice("precision", kPrecision, &tr->precision);
    }
    s.choice("recompute", kRecompute, &tr->recompute);
    s.integer("recompute_layers", &tr->recomputeLayers);
    s.known("recompute_modules");
    if (s.has("recompute_modules") && !s.failed()) {
        const QJsonValue list = s.value("recompute_modules");
        if (!list.isArray())
            return s.fail(s.key("recompute_modules"), QStringLiteral("must be a list of module names (%1)").arg(recomputeModuleNames()));
        tr->recomputeModules = 0;
        for (const QJsonValue &item : list.toArray()) {
            const unsigned flag = recomputeModuleFlag(item.toString());
            if (flag == 0)
                return s.fail(s.key("recompute_modules"), QStringLiteral("unknown module \"%1\" (known: %2)")
                                                              .arg(item.toString(), recomputeModuleNames()));
            tr->recomputeModules |= flag;
        }
    }
    s.integer("offload_layers", &tr->offloadLayers);
    s.boolean("fp8_params", &tr->fp8Params);
    s.choice("fp8_recipe", kFp8Recipe, &tr->fp8Recipe);
    s.boolean("fp8_attention", &tr->fp8Attention);
    s.boolean("moe_fused_mlp", &tr->moeFusedMlp);
    s.choice("optimizer_states", kOptimizerStates, &tr->optimizerStates);
    s.choice("cross_entropy", kCrossEntropy, &tr->crossEntropy);
    s.choice("kernels", kKernels, &tr->kernels);
    s.quantity("tokens", Dimension::Count, &tr->tokens);
    s.quantity("compute_time", Dimension::Seconds, &tr->computeSecondsOverride);
    return s.checkUnknown();
}

// A value that is either a preset name or an object (which may itself name a preset).
std::optional<QJsonObject> presetOrObject(const QJsonValue &value, Presets::Kind kind, const QString &key,
                                          const QString &expected, ScenarioError *error)
{
    if (value.isString()) {
        const QJsonObject object = Presets::builtin().find(kind, value.toString());
        if (object.isEmpty()) {
            *error = {key, QStringLiteral("unknown %1 preset \"%2\" (known: %3)")
                               .arg(Presets::kindLabel(kind), value.toString(),
                                    Presets::builtin().names(kind).join(QLatin1String(", ")))};
            return std::nullopt;
        }
        return object;
    }
    if (value.isObject())
        return withPreset(value.toObject(), kind, key + QLatin1String(".preset"), error);
    *error = {key, QStringLiteral("must be a %1 preset name or an object with %2").arg(Presets::kindLabel(kind), expected)};
    return std::nullopt;
}

bool readGpu(const QJsonValue &value, Gpu *gpu, const QString &key, ScenarioError *error)
{
    const auto resolved = presetOrObject(value, Presets::Gpus, key, QStringLiteral("peak_flops, memory, memory_bandwidth"), error);
    if (!resolved)
        return false;
    const QJsonObject &object = *resolved;
    Section s(object, key + QLatin1Char('.'), error);
    s.known("preset");
    gpu->name = object.value(QLatin1String("name")).toString(QStringLiteral("custom")).toStdString();
    // A custom object starts from nothing but what it gives: no silent defaults for its figures.
    if (!object.contains(QLatin1String("peak_flops")) || !object.contains(QLatin1String("memory"))
        || !object.contains(QLatin1String("memory_bandwidth")))
        return s.fail(key, QStringLiteral("a GPU needs peak_flops, memory and memory_bandwidth"));
    gpu->peakFlops8 = 0;
    gpu->peakFlops32 = 0;
    gpu->peakFlops4 = 0;
    s.quantity("peak_flops", Dimension::FlopsPerSecond, &gpu->peakFlops16);
    s.quantity("peak_flops_fp8", Dimension::FlopsPerSecond, &gpu->peakFlops8);
    s.quantity("peak_flops_fp32", Dimension::FlopsPerSecond, &gpu->peakFlops32);
    s.quantity("peak_flops_fp4", Dimension::FlopsPerSecond, &gpu->peakFlops4);
    s.quantity("memory", Dimension::Bytes, &gpu->memoryBytes);
    s.quantity("memory_bandwidth", Dimension::BytesPerSecond, &gpu->memoryBytesPerSecond);
    gpu->smCount = 0;
    gpu->gemmTileM = gpu->gemmTileN = gpu->gemmTileSms = 0;
    gpu->fp8Copies = 0;
    gpu->gemmEfficiency = gpu->gemmEfficiencyFp8 = gpu->gemmEfficiencyFp8Fast = gpu->gemmEfficiencyFp4 = gpu->attentionEfficiency = gpu->attentionEfficiencyFa2 = 0;
    gpu->attentionEfficiencyFp8 = gpu->attentionEfficiencyMxfp8 = 0;
    gpu->sustainedFraction = 0;
    s.integer("sm_count", &gpu->smCount, 100000);
    s.integer("gemm_tile_m", &gpu->gemmTileM, 4096);
    s.integer("gemm_tile_n", &gpu->gemmTileN, 4096);
    s.integer("gemm_tile_sms", &gpu->gemmTileSms, 64);
    s.integer("fp8_copies", &gpu->fp8Copies, 2);
    gpu->mxfp8 = false;
    s.boolean("mxfp8", &gpu->mxfp8);
    s.quantity("gemm_efficiency", Dimension::Ratio, &gpu->gemmEfficiency);
    s.quantity("gemm_efficiency_fp8", Dimension::Ratio, &gpu->gemmEfficiencyFp8);
    s.quantity("gemm_efficiency_fp8_fast", Dimension::Ratio, &gpu->gemmEfficiencyFp8Fast);
    s.quantity("gemm_efficiency_fp4", Dimension::Ratio, &gpu->gemmEfficiencyFp4);
    s.quantity("attention_efficiency", Dimension::Ratio, &gpu->attentionEfficiency);
    s.quantity("attention_efficiency_fa2", Dimension::Ratio, &gpu->attentionEfficiencyFa2);
    s.quantity("attention_efficiency_fp8", Dimension::Ratio, &gpu->attentionEfficiencyFp8);
    s.quantity("attention_efficiency_mxfp8", Dimension::Ratio, &gpu->attentionEfficiencyMxfp8);
    s.quantity("sustained_fraction", Dimension::Ratio, &gpu->sustainedFraction);
    gpu->attentionScoreDims = 0;
    s.quantity("attention_score_dims", Dimension::Count, &gpu->attentionScoreDims);
    gpu->hostBytesPerSecond = 0;
    s.quantity("host_bandwidth", Dimension::BytesPerSecond, &gpu->hostBytesPerSecond);
    gpu->hostMemoryBytes = 0;
    s.quantity("host_memory", Dimension::Bytes, &gpu->hostMemoryBytes);
    gpu->tdpWatts = gpu->pricePerHour = 0;
    s.quantity("tdp", Dimension::Watts, &gpu->tdpWatts);
    s.quantity("price_per_hour", Dimension::Ratio, &gpu->pricePerHour);
    gpu->accuracy.clear();
    s.text("accuracy", &gpu->accuracy);
    return s.checkUnknown();
}

bool readLink(const QJsonValue &value, Link *link, std::optional<Transport> *transport, const QString &key,
              ScenarioError *error)
{
    const auto resolved = presetOrObject(value, Presets::Links, key, QStringLiteral("bandwidth, latency, efficiency"), error);
    if (!resolved)
        return false;
    const QJsonObject &object = *resolved;
    Section s(object, key + QLatin1Char('.'), error);
    s.known("preset");
    link->name = object.value(QLatin1String("name")).toString(QStringLiteral("custom")).toStdString();
    if (!object.contains(QLatin1String("bandwidth")))
        return s.fail(key, QStringLiteral("a link needs a bandwidth (per direction), e.g. \"400 Gb/s\""));
    link->latencySeconds = 0;
    link->efficiency = 1;
    s.quantity("bandwidth", Dimension::BytesPerSecond, &link->bytesPerSecond);
    s.quantity("latency", Dimension::Seconds, &link->latencySeconds);
    s.quantity("efficiency", Dimension::Ratio, &link->efficiency);
    Transport t = Transport::Rdma;
    if (object.contains(QLatin1String("transport"))) {
        s.choice("transport", kTransport, &t);
        *transport = t;
    } else {
        s.known("transport");
    }
    return s.checkUnknown();
}

bool readCluster(const QJsonValue &value, Cluster *cl, ScenarioError *error)
{
    const QString prefix = QStringLiteral("cluster.");
    if (!value.isObject()) {
        *error = {QStringLiteral("cluster"), QStringLiteral("must be an object")};
        return false;
    }
    auto merged = withPreset(value.toObject(), Presets::Clusters, prefix + QLatin1String("preset"), error);
    if (!merged)
        return false;
    Section s(*merged, prefix, error);
    s.known("preset");
    if (merged->contains(QLatin1String("name")))
        cl->name = merged->value(QLatin1String("name")).toString().toStdString();
    s.known("gpu");
    if (merged->contains(QLatin1String("gpu")) && !readGpu(merged->value(QLatin1String("gpu")), &cl->gpu, s.key("gpu"), error))
        return false;
    s.integer("gpus", &cl->gpus);
    s.integer("gpus_per_node", &cl->gpusPerNode);
    std::optional<Transport> linkTransport, ignored;
    s.known("intra_node");
    s.known("inter_node");
    if (merged->contains(QLatin1String("intra_node"))
        && !readLink(merged->value(QLatin1String("intra_node")), &cl->intraNode, &ignored, s.key("intra_node"), error))
        return false;
    if (merged->contains(QLatin1String("inter_node"))
        && !readLink(merged->value(QLatin1String("inter_node")), &cl->interNode, &linkTransport, s.key("inter_node"), error))
        return false;
    if (linkTransport)
        cl->transport = *linkTransport;   // a TCP link preset implies TCP unless the section says otherwise
    const bool railsGiven = merged->contains(QLatin1String("rails"));
    s.integer("rails", &cl->rails);
    if (!railsGiven && merged->contains(QLatin1String("gpus_per_node")))
        cl->rails = cl->gpusPerNode;
    s.quantity("oversubscription", Dimension::Ratio, &cl->oversubscription);
    s.boolean("in_network_reduction", &cl->inNetworkReduction);
    s.choice("transport", kTransport, &cl->transport);
    s.choice("intra_node_fabric", kIntraFabric, &cl->intraFabric);
    if (merged->value(QLatin1String("nvls")).isBool()) {   // true/false as well as "auto"/"on"/"off"
        s.known("nvls");
        cl->nvls = merged->value(QLatin1String("nvls")).toBool() ? Nvls::On : Nvls::Off;
    } else
        s.choice("nvls", kNvls, &cl->nvls);
    s.quantity("price_per_gpu_hour", Dimension::Ratio, &cl->pricePerGpuHour);
    return s.checkUnknown();
}

// Power, facility, failures and checkpoints (model/economics.h); optional, defaults in inputs.h.
bool readOperations(const QJsonValue &value, Operations *o, ScenarioError *error)
{
    if (!value.isObject()) {
        *error = {QStringLiteral("operations"), QStringLiteral("must be an object")};
        return false;
    }
    Section s(value.toObject(), QStringLiteral("operations."), error);
    s.quantity("average_power", Dimension::Ratio, &o->averagePowerFraction);
    s.quantity("host_power", Dimension::Watts, &o->hostWattsPerGpu);
    s.quantity("network_power", Dimension::Ratio, &o->networkPowerFraction);
    s.quantity("pue", Dimension::Ratio, &o->pue);
    s.quantity("grid_intensity", Dimension::Ratio, &o->gridKgCo2PerKwh);
    s.quantity("failure_rate", Dimension::Ratio, &o->failuresPerGpuHour);
    s.quantity("storage_bandwidth", Dimension::BytesPerSecond, &o->storageBytesPerSecond);
    s.quantity("restart_time", Dimension::Seconds, &o->restartSeconds);
    if (!s.checkUnknown())
        return false;
    Scenario probe;
    probe.operations = *o;
    if (const auto p = validateOperations(probe)) {   // the same ranges the model checks
        *error = {QString::fromStdString(p->field), QString::fromStdString(p->message)};
        return false;
    }
    return true;
}

bool readPlan(const QJsonValue &value, Scenario *sc, ScenarioError *error)
{
    if (!value.isObject()) {
        *error = {QStringLiteral("plan"), QStringLiteral("must be an object")};
        return false;
    }
    Plan &pl = sc->plan;
    Section s(value.toObject(), QStringLiteral("plan."), error);
    s.integer("tp", &pl.tp);
    s.integer("pp", &pl.pp);
    s.integer("cp", &pl.cp);
    s.choice("cp_comm", kCpComm, &pl.cpComm);
    const bool dpGiven = s.has("dp");
    s.integer("dp", &pl.dp);
    if (!dpGiven && !s.failed()) {
        // dp may be left out: it is what the GPUs leave over (documented in README).
        const long long modelParallel = (long long)pl.tp * pl.pp * pl.cp;
        if (modelParallel <= 0 || sc->cluster.gpus % modelParallel != 0)
            return s.fail(QStringLiteral("plan.dp"), QStringLiteral("not given, and cluster.gpus (%1) is not a multiple of "
                                                                    "tp x pp x cp (%2)")
                                                         .arg(sc->cluster.gpus)
                                                         .arg(modelParallel));
        pl.dp = int(sc->cluster.gpus / modelParallel);
    }
    s.boolean("sequence_parallel", &pl.sequenceParallel);
    s.choice("schedule", kSchedule, &pl.schedule);
    s.integer("virtual_stages", &pl.virtualStages);
    s.integer("zero", &pl.zeroStage);
    s.boolean("overlap_dp", &pl.overlapDp);
    s.boolean("tp_overlap", &pl.tpOverlap);
    s.boolean("tp_async_grad", &pl.tpAsyncGrad);
    if (s.value("bucket").toString() == QLatin1String("auto")) {
        s.known("bucket");
        pl.bucketBytes = kFrameworkBucket;
    } else {
        s.quantity("bucket", Dimension::Bytes, &pl.bucketBytes);
    }
    s.quantity("compression", Dimension::Ratio, &pl.compression);
    s.quantity("jitter", Dimension::Ratio, &pl.jitter);
    s.integer("local_sgd", &pl.localSgdInterval);
    s.choice("framework", kFramework, &pl.framework);
    s.choice("grad_reduce", kGradReduce, &pl.gradReduce);
    s.integer("shard_group", &pl.shardGroup);
    s.integer("fsdp_version", &pl.fsdpVersion);
    s.integer("ep", &pl.ep);
    s.boolean("ep_overlap", &pl.epOverlap);
    s.choice("ep_dispatcher", kEpDispatcher, &pl.epDispatcher);
    s.integer("first_stage_layers", &pl.firstStageLayers);
    s.integer("last_stage_layers", &pl.lastStageLayers);
    s.boolean("embedding_in_pipeline_split", &pl.embeddingInSplit);
    s.boolean("loss_in_pipeline_split", &pl.lossInSplit);
    s.known("rank_order");
    if (s.has("rank_order") && !s.failed()) {
        const QJsonValue order = s.value("rank_order");
        if (!order.isString() || !parseRankOrder(order.toString().toLower().toStdString(), &pl.rankOrder))
            return s.fail(QStringLiteral("plan.rank_order"),
                          QStringLiteral("must name tp, cp, dp and pp once each, innermost first, joined by '-' "
                                         "(e.g. \"tp-cp-dp-pp\", Megatron's default)"));
    }
    return s.checkUnknown();
}

} // namespace

std::optional<LoadedScenario> parseScenario(const QByteArray &json, ScenarioError *error)
{
    if (json.size() > kMaxScenarioFileBytes) {
        *error = {{}, QStringLiteral("scenario is %1 bytes; at most 1 MiB is accepted").arg(json.size())};
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (doc.isNull()) {
        const int line = int(json.left(parseError.offset).count('\n')) + 1;
        *error = {{}, QStringLiteral("not valid JSON: %1 at line %2 (offset %3)")
                          .arg(parseError.errorString())
                          .arg(line)
                          .arg(parseError.offset)};
        return std::nullopt;
    }
    if (!doc.isObject()) {
        *error = {{}, QStringLiteral("the top level must be a JSON object")};
        return std::nullopt;
    }
    const QJsonObject root = doc.object();
    const QJsonValue format = root.value(QLatin1String("format"));
    if (format.toString() != QLatin1String(kScenarioFormat)) {
        *error = {QStringLiteral("format"), format.isUndefined()
                                                ? QStringLiteral("missing; must be \"%1\"").arg(QLatin1String(kScenarioFormat))
                                                : QStringLiteral("must be \"%1\" (got %2)")
                                                      .arg(QLatin1String(kScenarioFormat), format.toVariant().toString())};
        return std::nullopt;
    }
    static const QStringList kTopLevel = {QStringLiteral("format"),   QStringLiteral("name"),
                                          QStringLiteral("description"), QStringLiteral("workload"),
                                          QStringLiteral("training"), QStringLiteral("cluster"),
                                          QStringLiteral("plan"), QStringLiteral("operations")};
    for (auto it = root.begin(); it != root.end(); ++it)
        if (!kTopLevel.contains(it.key())) {
            *error = {it.key(), QStringLiteral("unknown key (allowed: %1)").arg(kTopLevel.join(QLatin1String(", ")))};
            return std::nullopt;
        }
    for (const char *section : {"workload", "training", "cluster", "plan"})
        if (!root.contains(QLatin1String(section))) {
            *error = {QLatin1String(section), QStringLiteral("missing section")};
            return std::nullopt;
        }
    LoadedScenario out;
    if (root.contains(QLatin1String("name")) && !root.value(QLatin1String("name")).isString()) {
        *error = {QStringLiteral("name"), QStringLiteral("must be a string")};
        return std::nullopt;
    }
    out.name = root.value(QLatin1String("name")).toString();
    out.description = root.value(QLatin1String("description")).toString();
    if (!readWorkload(root.value(QLatin1String("workload")), &out, error)
        || !readTraining(root.value(QLatin1String("training")), &out.scenario.training, error)
        || !readCluster(root.value(QLatin1String("cluster")), &out.scenario.cluster, error)
        || !readPlan(root.value(QLatin1String("plan")), &out.scenario, error)
        || (root.contains(QLatin1String("operations"))
            && !readOperations(root.value(QLatin1String("operations")), &out.scenario.operations, error)))
        return std::nullopt;
    return out;
}

std::optional<LoadedScenario> loadScenarioFile(const QString &path, ScenarioError *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = {{}, QStringLiteral("cannot open %1: %2").arg(path, file.errorString())};
        return std::nullopt;
    }
    if (file.size() > kMaxScenarioFileBytes) {
        *error = {{}, QStringLiteral("%1 is %2 bytes; scenario files are at most 1 MiB").arg(path).arg(file.size())};
        return std::nullopt;
    }
    return parseScenario(file.read(kMaxScenarioFileBytes + 1), error);
}

QJsonObject planToJson(const Plan &pl)
{
    return QJsonObject{{QStringLiteral("tp"), pl.tp},
                     {QStringLiteral("pp"), pl.pp},
                     {QStringLiteral("dp"), pl.dp},
                     {QStringLiteral("cp"), pl.cp},
                     {QStringLiteral("cp_comm"), QLatin1String(nameOf(pl.cpComm))},
                     {QStringLiteral("sequence_parallel"), pl.sequenceParallel},
                     {QStringLiteral("schedule"), QLatin1String(nameOf(pl.schedule))},
                     {QStringLiteral("virtual_stages"), pl.virtualStages},
                     {QStringLiteral("zero"), pl.zeroStage},
                     {QStringLiteral("overlap_dp"), pl.overlapDp},
                     {QStringLiteral("tp_overlap"), pl.tpOverlap},
                     {QStringLiteral("tp_async_grad"), pl.tpAsyncGrad},
                     {QStringLiteral("bucket"), pl.bucketBytes < 0 ? QJsonValue(QStringLiteral("auto")) : QJsonValue(pl.bucketBytes)},
                     {QStringLiteral("compression"), pl.compression},
                     {QStringLiteral("jitter"), pl.jitter},
                     {QStringLiteral("local_sgd"), pl.localSgdInterval},
                     {QStringLiteral("framework"), QLatin1String(nameOf(pl.framework))},
                     {QStringLiteral("grad_reduce"), QLatin1String(nameOf(pl.gradReduce))},
                     {QStringLiteral("shard_group"), pl.shardGroup},
                     {QStringLiteral("fsdp_version"), pl.fsdpVersion},
                     {QStringLiteral("ep"), pl.ep},
                     {QStringLiteral("ep_overlap"), pl.epOverlap},
                     {QStringLiteral("ep_dispatcher"), QLatin1String(nameOf(pl.epDispatcher))},
                     {QStringLiteral("first_stage_layers"), pl.firstStageLayers},
                     {QStringLiteral("last_stage_layers"), pl.lastStageLayers},
                     {QStringLiteral("embedding_in_pipeline_split"), pl.embeddingInSplit},
                     {QStringLiteral("loss_in_pipeline_split"), pl.lossInSplit},
                     {QStringLiteral("rank_order"), QString::fromStdString(rankOrderName(pl))}};
}

QJsonObject scenarioToJson(const Scenario &sc, const QString &name, const QString &description)
{
    auto str = [](const std::string &s) { return QString::fromStdString(s); };
    auto link = [&](const Link &l) {
        return QJsonObject{{QStringLiteral("name"), str(l.name)},
                           {QStringLiteral("bandwidth"), l.bytesPerSecond},
                           {QStringLiteral("latency"), l.latencySeconds},
                           {QStringLiteral("efficiency"), l.efficiency}};
    };
    const Workload &w = sc.workload;
    QJsonObject workload{{QStringLiteral("layers"), w.layers},
                         {QStringLiteral("hidden"), w.hidden},
                         {QStringLiteral("heads"), w.heads},
                         {QStringLiteral("kv_heads"), w.kvHeads},
                         {QStringLiteral("head_dim"), w.headDim},
                         {QStringLiteral("qk_norm"), w.qkNorm},
                         {QStringLiteral("sliding_window"), w.slidingWindow},
                         {QStringLiteral("full_attention_every"), w.fullAttentionEvery},
                         {QStringLiteral("rope_attention_factor"), w.ropeAttentionFactor},
                         {QStringLiteral("expert_bias"), w.expertBias},
                         {QStringLiteral("glu_clamp"), w.gluClamp},
                         {QStringLiteral("experts"), w.experts},
                         {QStringLiteral("experts_per_token"), w.expertsPerToken},
                         {QStringLiteral("moe_ffn_hidden"), w.moeFfnHidden},
                         {QStringLiteral("first_dense_layers"), w.firstDenseLayers},
                         {QStringLiteral("moe_shared_ffn_hidden"), w.sharedExpertFfn},
                         {QStringLiteral("q_lora_rank"), w.qLoraRank},
                         {QStringLiteral("kv_lora_rank"), w.kvLoraRank},
                         {QStringLiteral("qk_rope_head_dim"), w.ropeHeadDim},
                         {QStringLiteral("v_head_dim"), w.vHeadDim},
                         {QStringLiteral("mtp_layers"), w.mtpLayers},
                         {QStringLiteral("moe_router_groups"), w.moeRouterGroups},
                         {QStringLiteral("moe_router_group_topk"), w.moeRouterGroupTopk},
                         {QStringLiteral("ffn_hidden"), w.ffnHidden},
                         {QStringLiteral("mlp"), QLatin1String(nameOf(w.mlp))},
                         {QStringLiteral("tied_embeddings"), w.tiedEmbeddings},
                         {QStringLiteral("learned_positions"), w.learnedPositions},
                         {QStringLiteral("vocab"), w.vocab},
                         {QStringLiteral("seq_len"), w.seqLen},
                         {QStringLiteral("attention"), QLatin1String(nameOf(w.attention))},
                         {QStringLiteral("norm"), QLatin1String(nameOf(w.norm))},
                         {QStringLiteral("causal"), w.causal}};
    if (!w.name.empty())
        workload.insert(QStringLiteral("name"), str(w.name));
    if (!w.accuracy.empty())
        workload.insert(QStringLiteral("accuracy"), str(w.accuracy));
    const Training &tr = sc.training;
    QJsonObject training{{QStringLiteral("global_batch"), double(tr.globalBatch)},
                         {QStringLiteral("micro_batch"), tr.microBatch},
                         {QStringLiteral("precision"), QLatin1String(nameOf(tr.precision))},
                         {QStringLiteral("recompute"), QLatin1String(nameOf(tr.recompute))},
                         {QStringLiteral("recompute_layers"), tr.recomputeLayers},
                         {QStringLiteral("recompute_modules"), recomputeModuleList(tr.recomputeModules)},
                         {QStringLiteral("offload_layers"), tr.offloadLayers},
                         {QStringLiteral("fp8_params"), tr.fp8Params},
                         {QStringLiteral("fp8_recipe"), QLatin1String(nameOf(tr.fp8Recipe))},
                         {QStringLiteral("fp8_attention"), tr.fp8Attention},
                         {QStringLiteral("moe_fused_mlp"), tr.moeFusedMlp},
                         {QStringLiteral("optimizer_states"), QLatin1String(nameOf(tr.optimizerStates))},
                         {QStringLiteral("cross_entropy"), QLatin1String(nameOf(tr.crossEntropy))},
                         {QStringLiteral("kernels"), QLatin1String(nameOf(tr.kernels))},
                         {QStringLiteral("tokens"), tr.tokens}};
    if (tr.computeSecondsOverride > 0)
        training.insert(QStringLiteral("compute_time"), tr.computeSecondsOverride);
    const Cluster &cl = sc.cluster;
    QJsonObject gpu{{QStringLiteral("name"), str(cl.gpu.name)},
                    {QStringLiteral("peak_flops"), cl.gpu.peakFlops16},
                    {QStringLiteral("memory"), cl.gpu.memoryBytes},
                    {QStringLiteral("memory_bandwidth"), cl.gpu.memoryBytesPerSecond}};
    if (cl.gpu.peakFlops8 > 0)
        gpu.insert(QStringLiteral("peak_flops_fp8"), cl.gpu.peakFlops8);
    if (cl.gpu.peakFlops32 > 0)
        gpu.insert(QStringLiteral("peak_flops_fp32"), cl.gpu.peakFlops32);
    if (cl.gpu.peakFlops4 > 0)
        gpu.insert(QStringLiteral("peak_flops_fp4"), cl.gpu.peakFlops4);
    if (cl.gpu.smCount > 0)
        gpu.insert(QStringLiteral("sm_count"), cl.gpu.smCount);
    if (cl.gpu.gemmTileM > 0)
        gpu.insert(QStringLiteral("gemm_tile_m"), cl.gpu.gemmTileM);
    if (cl.gpu.gemmTileN > 0)
        gpu.insert(QStringLiteral("gemm_tile_n"), cl.gpu.gemmTileN);
    if (cl.gpu.gemmTileSms > 0)
        gpu.insert(QStringLiteral("gemm_tile_sms"), cl.gpu.gemmTileSms);
    if (cl.gpu.fp8Copies > 0)
        gpu.insert(QStringLiteral("fp8_copies"), cl.gpu.fp8Copies);
    if (cl.gpu.mxfp8)
        gpu.insert(QStringLiteral("mxfp8"), true);
    if (cl.gpu.gemmEfficiency > 0)
        gpu.insert(QStringLiteral("gemm_efficiency"), cl.gpu.gemmEfficiency);
    if (cl.gpu.gemmEfficiencyFp8 > 0)
        gpu.insert(QStringLiteral("gemm_efficiency_fp8"), cl.gpu.gemmEfficiencyFp8);
    if (cl.gpu.gemmEfficiencyFp8Fast > 0)
        gpu.insert(QStringLiteral("gemm_efficiency_fp8_fast"), cl.gpu.gemmEfficiencyFp8Fast);
    if (cl.gpu.gemmEfficiencyFp4 > 0)
        gpu.insert(QStringLiteral("gemm_efficiency_fp4"), cl.gpu.gemmEfficiencyFp4);
    if (cl.gpu.attentionEfficiency > 0)
        gpu.insert(QStringLiteral("attention_efficiency"), cl.gpu.attentionEfficiency);
    if (cl.gpu.attentionEfficiencyFa2 > 0)
        gpu.insert(QStringLiteral("attention_efficiency_fa2"), cl.gpu.attentionEfficiencyFa2);
    if (cl.gpu.attentionEfficiencyFp8 > 0)
        gpu.insert(QStringLiteral("attention_efficiency_fp8"), cl.gpu.attentionEfficiencyFp8);
    if (cl.gpu.attentionEfficiencyMxfp8 > 0)
        gpu.insert(QStringLiteral("attention_efficiency_mxfp8"), cl.gpu.attentionEfficiencyMxfp8);
    if (cl.gpu.sustainedFraction > 0)
        gpu.insert(QStringLiteral("sustained_fraction"), cl.gpu.sustainedFraction);
    if (cl.gpu.attentionScoreDims > 0)
        gpu.insert(QStringLiteral("attention_score_dims"), cl.gpu.attentionScoreDims);
    if (cl.gpu.hostBytesPerSecond > 0)
        gpu.insert(QStringLiteral("host_bandwidth"), cl.gpu.hostBytesPerSecond);
    if (cl.gpu.hostMemoryBytes > 0)
        gpu.insert(QStringLiteral("host_memory"), cl.gpu.hostMemoryBytes);
    if (cl.gpu.tdpWatts > 0)
        gpu.insert(QStringLiteral("tdp"), cl.gpu.tdpWatts);
    if (cl.gpu.pricePerHour > 0)
        gpu.insert(QStringLiteral("price_per_hour"), cl.gpu.pricePerHour);
    if (!cl.gpu.accuracy.empty())
        gpu.insert(QStringLiteral("accuracy"), str(cl.gpu.accuracy));
    QJsonObject cluster{{QStringLiteral("gpu"), gpu},
                        {QStringLiteral("gpus"), cl.gpus},
                        {QStringLiteral("gpus_per_node"), cl.gpusPerNode},
                        {QStringLiteral("intra_node"), link(cl.intraNode)},
                        {QStringLiteral("inter_node"), link(cl.interNode)},
                        {QStringLiteral("rails"), cl.rails},
                        {QStringLiteral("oversubscription"), cl.oversubscription},
                        {QStringLiteral("in_network_reduction"), cl.inNetworkReduction},
                        {QStringLiteral("transport"), QLatin1String(nameOf(cl.transport))},
                        {QStringLiteral("intra_node_fabric"), QLatin1String(nameOf(cl.intraFabric))},
                        {QStringLiteral("nvls"), QLatin1String(cl.nvls == Nvls::Auto ? "auto" : cl.nvls == Nvls::On ? "on" : "off")}};
    if (!cl.name.empty())
        cluster.insert(QStringLiteral("name"), str(cl.name));
    if (cl.pricePerGpuHour > 0)
        cluster.insert(QStringLiteral("price_per_gpu_hour"), cl.pricePerGpuHour);
    const QJsonObject plan = planToJson(sc.plan);
    const Operations &o = sc.operations;
    const QJsonObject operations{{QStringLiteral("average_power"), o.averagePowerFraction},
                                 {QStringLiteral("host_power"), o.hostWattsPerGpu},
                                 {QStringLiteral("network_power"), o.networkPowerFraction},
                                 {QStringLiteral("pue"), o.pue},
                                 {QStringLiteral("grid_intensity"), o.gridKgCo2PerKwh},
                                 {QStringLiteral("failure_rate"), o.failuresPerGpuHour},
                                 {QStringLiteral("storage_bandwidth"), o.storageBytesPerSecond},
                                 {QStringLiteral("restart_time"), o.restartSeconds}};
    QJsonObject root{{QStringLiteral("format"), QLatin1String(kScenarioFormat)},
                     {QStringLiteral("workload"), workload},
                     {QStringLiteral("training"), training},
                     {QStringLiteral("cluster"), cluster},
                     {QStringLiteral("plan"), plan},
                     {QStringLiteral("operations"), operations}};
    if (!name.isEmpty())
        root.insert(QStringLiteral("name"), name);
    if (!description.isEmpty())
        root.insert(QStringLiteral("description"), description);
    return root;
}

bool saveScenarioFile(const QString &path, const QJsonObject &json, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = file.errorString();
        return false;
    }
    file.write(QJsonDocument(json).toJson(QJsonDocument::Indented));
    if (!file.commit()) {
        *error = file.errorString();
        return false;
    }
    return true;
}

} // namespace ts

namespace ts {

bool workloadFromPreset(const QString &name, Workload *workload, ScenarioError *error)
{
    LoadedScenario loaded;
    if (!readWorkload(QJsonObject{{QStringLiteral("preset"), name}}, &loaded, error))
        return false;
    *workload = loaded.scenario.workload;
    return true;
}

bool gpuFromPreset(const QString &name, Gpu *gpu, ScenarioError *error)
{
    return readGpu(QJsonValue(name), gpu, QStringLiteral("cluster.gpu"), error);
}

const std::vector<LinkChoice> &interNodeLinkChoices()
{
    static const std::vector<LinkChoice> links = [] {
        std::vector<LinkChoice> out;
        const Presets &presets = Presets::builtin();
        for (const QString &name : presets.names(Presets::Links)) {
            if (presets.find(Presets::Links, name).value(QLatin1String("tier")).toString() != QLatin1String("inter_node"))
                continue;
            Link link;
            std::optional<Transport> transport;
            ScenarioError error;
            if (linkFromPreset(name, &link, &transport, &error))
                out.push_back({name.toStdString(), link, transport.value_or(Transport::Rdma)});
        }
        return out;
    }();
    return links;
}

bool linkFromPreset(const QString &name, Link *link, std::optional<Transport> *transport, ScenarioError *error)
{
    return readLink(QJsonValue(name), link, transport, QStringLiteral("link"), error);
}

bool clusterFromPreset(const QString &name, Cluster *cluster, ScenarioError *error)
{
    Cluster c;
    if (!readCluster(QJsonObject{{QStringLiteral("preset"), name}}, &c, error))
        return false;
    *cluster = c;
    return true;
}

namespace {
void flattenInto(const QJsonObject &o, const QString &prefix, QMap<QString, QString> *out)
{
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString key = prefix.isEmpty() ? it.key() : prefix + QLatin1Char('.') + it.key();
        if (it.value().isObject())
            flattenInto(it.value().toObject(), key, out);
        else
            out->insert(key, it.value().toVariant().toString());
    }
}
} // namespace

QMap<QString, QString> scenarioInputs(const Scenario &scenario)
{
    QMap<QString, QString> raw;
    flattenInto(scenarioToJson(scenario), {}, &raw);
    // Inputs of the field table in words with their units ("Token budget" = "15 T tokens"),
    // the rest by their file key.
    QMap<QString, QString> out;
    for (auto it = raw.begin(); it != raw.end(); ++it) {
        const Field f = fieldForKey(it.key().toStdString());
        if (f == Field::None) {
            out.insert(it.key(), it.value());
            continue;
        }
        QString words = QString::fromLatin1(fieldInfo(f).name);
        if (!words.isEmpty() && words.front().isLower())
            words.front() = words.front().toUpper();
        out.insert(words, QString::fromStdString(formatFieldValue(f, fieldValue(scenario, f))));
    }
    return out;
}

bool readNcclLogFile(const QString &path, std::vector<NcclLog> *logs, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot open %1: %2").arg(path, file.errorString());
        return false;
    }
    ParseError parse;
    if (parseNcclLogs(file.readAll().toStdString(), QFileInfo(path).fileName().toStdString(), logs, &parse))
        return true;
    *error = QString::fromStdString(parse.message);
    return false;
}

} // namespace ts
