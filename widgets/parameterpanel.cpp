// SPDX-License-Identifier: MIT
#include "parameterpanel.h"

#include "formatting.h"

#include "quantityslider.h"
#include "shape.h"
#include "units.h"

#include "theme.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QVBoxLayout>

#include <cmath>

namespace ts {

namespace {
using slidermap::Scale;

std::vector<double> toDoubles(const std::vector<int> &values)
{
    return std::vector<double>(values.begin(), values.end());
}

QLabel *problemLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setWordWrap(true);
    QPalette warn = label->palette();
    warn.setColor(QPalette::WindowText, theme::errorColor());
    label->setPalette(warn);
    label->setVisible(false);
    return label;
}
} // namespace

ParameterPanel::ParameterPanel(QWidget *parent)
    : QScrollArea(parent)
{
    auto *content = new QWidget(this);
    auto *column = new QVBoxLayout(content);
    column->setSpacing(10);

    m_generalProblem = problemLabel(content);
    column->addWidget(m_generalProblem);

    auto group = [&](const QString &title) {
        auto *box = new QGroupBox(title, content);
        auto *layout = new QVBoxLayout(box);
        layout->setSpacing(4);
        column->addWidget(box);
        return layout;
    };

    QVBoxLayout *model = group(tr("Model"));
    addPresetCombo(model, QStringLiteral("model"), tr("Preset"), tr("A published model shape (sources in the presets)."));
    QuantitySlider *params = addSlider(model, Field::Parameters, tr("Parameters"), tr("B"),
                                       tr("Parameter count in billions. Moving it derives a GPT-style shape (h multiple of 128, h/L near 128)."));
    params->setRange(0.1, 2000, Scale::Log, 2);
    m_shapeNote = new QLabel(content);
    m_shapeNote->setWordWrap(true);
    m_shapeNote->setForegroundRole(QPalette::PlaceholderText);
    model->addWidget(m_shapeNote);
    addSlider(model, Field::SeqLen, tr("Sequence length"), tr("tokens"), tr("Tokens per sequence (s)."))
        ->setSteps({512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576});

    QVBoxLayout *training = group(tr("Training"));
    addSlider(training, Field::GlobalBatch, tr("Global batch"), tr("sequences"),
              tr("Sequences per optimizer step (B). Snaps to multiples of micro-batch × DP; micro-batches m = B / (b × DP)."))
        ->setRange(1, 1e9, Scale::Steps, 0);
    addSlider(training, Field::MicroBatch, tr("Micro-batch size"), tr("sequences"), tr("Sequences per micro-batch (b)."))
        ->setSteps({1, 2, 4, 8, 16, 32, 64});
    addCombo(training, Field::Precision, tr("Precision"), {tr("FP32"), tr("BF16"), tr("FP16"), tr("FP8")},
             tr("Compute precision of the GEMMs; mixed precision keeps FP32 master weights."));
    addCombo(training, Field::Recompute, tr("Activation recompute"), {tr("None"), tr("Selective"), tr("Full")},
             tr("Korthikanti 2022: selective recomputes attention (under Megatron-LM, the modules checked below); full "
                "recomputes each layer's forward."));
    addRecomputeModules(training);
    QuantitySlider *recomputeLayers = addSlider(training, Field::RecomputeLayers, tr("Recomputed layers per chunk"), tr("layers"),
              tr("With full recompute: the first N layers of each model chunk are recomputed, the others keep their "
                 "activations (Megatron --recompute-method block). 0 = every layer."));
    recomputeLayers->setRange(0, 128, Scale::Linear, 0);
    recomputeLayers->setMinimumText(tr("every layer"));
    QuantitySlider *offloadLayers = addSlider(training, Field::OffloadLayers, tr("Layers offloaded to host"), tr("layers"),
              tr("Without recompute or pipeline stages (Megatron --cpu-offloading): the first N layers' activations go to "
                 "host memory during forward and come back for backward, behind compute while the host link keeps up "
                 "(PCIe Gen5, or NVLink-C2C on Grace: cluster.gpu.host_bandwidth). 0 = none."));
    offloadLayers->setRange(0, 128, Scale::Linear, 0);
    offloadLayers->setMinimumText(tr("none"));
    addToggle(training, Field::Fp8Params, tr("FP8 weights"),
              tr("With FP8: the GEMM weights are kept and all-gathered in FP8, without a 16-bit copy "
                 "(Megatron --fp8-param-gather, NeMo fp8_params, torchao float8 all-gather)."));
    addToggle(training, Field::Fp8Attention, tr("FP8 attention"),
              tr("With FP8: the fused attention runs on FP8 Q, K and V at the GPU's measured cuDNN FP8 attention rate "
                 "(Megatron --fp8-dot-product-attention, NeMo and Megatron-Bridge fp8_dot_product_attention)."));
    // In the order of Fp8Recipe: Delayed, Tensorwise, Mxfp8, Blockwise, Nvfp4.
    addCombo(training, Field::Fp8Recipe, tr("FP8 recipe"),
             {tr("Delayed scaling"), tr("Tensorwise (current)"), tr("MXFP8 (Blackwell)"), tr("Blockwise (128)"), tr("NVFP4 (Blackwell)")},
             tr("How FP8 GEMM inputs are scaled (Megatron --fp8-recipe): delayed from the amax history (one cast pass); "
                "tensorwise from each tensor's own amax (an extra read); MXFP8 with a scale per 32 elements "
                "(Blackwell, row- and column-wise copies); blockwise per 128 elements (DeepSeek-V3, emulated on Hopper); "
                "NVFP4: the GEMMs in 4 bits at the FP4 peak (Transformer Engine NVFP4BlockScaling, Megatron-Bridge nvfp4)."));
    // In the order of Attention: Flash, Materialized, Flash2, Triton.
    addCombo(training, Field::Attention, tr("Attention kernel"),
             {tr("FlashAttention (best)"), tr("Materialized"), tr("FlashAttention-2"), tr("FlashAttention Triton")},
             tr("FlashAttention-3 / cuDNN on Hopper as Transformer Engine runs it; FlashAttention-2 as flash-attn 2 and "
                "PyTorch SDPA run it; materialized: the s × s scores stored (2021-22 runs); FlashAttention's Triton kernel "
                "as llm-foundry's attn_impl triton ran it (2023), at 0.45 of FlashAttention-2."));
    // Trillions, as the cards print them ("15.0T tokens"): one unit for the budget everywhere.
    addSlider(training, Field::Tokens, tr("Token budget"), tr("T tokens"), tr("Trillions of tokens to train on, for time and GPU-hours."))
        ->setRange(0.001, 100, Scale::Log, 3);

    QVBoxLayout *cluster = group(tr("Cluster"));
    addPresetCombo(cluster, QStringLiteral("gpu"), tr("GPU"), tr("GPU type: peak FLOP/s, HBM size and bandwidth (vendor figures)."));
    addSlider(cluster, Field::Gpus, tr("GPUs"), QString(), tr("Total GPU count. DP follows: DP = GPUs / (TP × PP × CP)."))
        ->setRange(1, 65536, Scale::Log, 0);
    addSlider(cluster, Field::GpusPerNode, tr("GPUs per node"), QString(), tr("GPUs sharing the intra-node link (NVLink domain)."))
        ->setSteps({1, 2, 4, 8, 16, 32, 72});
    addPresetCombo(cluster, QStringLiteral("intra_node"), tr("Intra-node link"), tr("NVLink/NVSwitch or PCIe inside a node."));
    addPresetCombo(cluster, QStringLiteral("inter_node"), tr("Inter-node NIC"), tr("Network per NIC (rail) between nodes."));
    addToggle(cluster, Field::InNetworkReduction, tr("In-network reduction (SHARP)"),
              tr("Switches reduce gradients in flight: each GPU sends its share once."));
    addToggle(cluster, Field::Transport, tr("RDMA (GPUDirect)"), tr("Off: TCP sockets, half the bandwidth and more latency."));

    QVBoxLayout *plan = group(tr("Parallelism"));
    addSlider(plan, Field::Tp, tr("Tensor parallel (TP)"), QString(), tr("Splits each layer's matrices; snaps to divisors of heads and GPUs."));
    addSlider(plan, Field::Pp, tr("Pipeline parallel (PP)"), QString(), tr("Splits the layers into stages."));
    addSlider(plan, Field::Cp, tr("Context parallel (CP)"), QString(), tr("Splits the sequence across ranks for attention."));
    // In the order of CpComm: P2p, AllGather, A2a.
    addCombo(plan, Field::CpComm, tr("CP communication"), {tr("K/V ring (p2p)"), tr("K/V all-gather"), tr("All-to-all (Ulysses)")},
             tr("How context parallelism moves K and V (Megatron-LM --cp-comm-type): a ring of K/V blocks hidden behind "
                "attention; K and V gathered whole before attention, in the open (Llama 3); or DeepSpeed-Ulysses "
                "all-to-alls that give each rank whole sequences of fewer heads, in the open."));
    addSlider(plan, Field::Dp, tr("Data parallel (DP)"), QString(), tr("Replicas. Changing it changes the GPU count."));
    addSlider(plan, Field::Ep, tr("Expert parallel (EP)"), QString(),
              tr("Mixture-of-experts models: splits each layer's experts over this many of the stage's TP × CP × DP ranks "
                 "(Megatron-Core --expert-model-parallel-size); tokens reach them by all-to-all."));
    addToggle(plan, Field::EpOverlap, tr("Overlap expert all-to-alls"),
              tr("The dispatch and combine of one micro-batch run behind another's layer (Megatron-Core "
                 "--overlap-moe-expert-parallel-comm)."));
    // In the order of EpDispatcher: AllToAll, DeepEp, HybridEp.
    addCombo(plan, Field::EpDispatcher, tr("Token dispatcher"), {tr("All-to-all (NCCL)"), tr("DeepEP"), tr("HybridEP")},
             tr("How tokens reach their experts (Megatron-Core --moe-token-dispatcher-type): an NCCL all-to-all of every "
                "routed copy, or the flex dispatcher (DeepEP, HybridEP), which sends a token once per node over the "
                "network and once per GPU inside it."));
    addCombo(plan, Field::Schedule, tr("Pipeline schedule"), {tr("GPipe"), tr("1F1B"), tr("Interleaved 1F1B"), tr("Zero bubble (ZB-H1)"), tr("DualPipeV")},
             tr("How forward and backward passes of micro-batches are ordered on the stages."));
    addSlider(plan, Field::VirtualStages, tr("Virtual stages (v)"), QString(), tr("Model chunks per stage for interleaved 1F1B."))
        ->setRange(1, 16, Scale::Linear, 0);
    addCombo(plan, Field::Framework, tr("Framework"), {tr("Derived from ZeRO"), tr("Megatron-LM"), tr("DeepSpeed"), tr("PyTorch FSDP")},
             tr("Whose memory layout, gradient sync and schedules the figures assume; derived: ZeRO 3 FSDP, ZeRO 2 "
                "DeepSpeed (FSDP with PP), else Megatron-LM."));
    // Index = fsdp_version - 1.
    addCombo(plan, Field::FsdpVersion, tr("FSDP API"), {tr("FSDP1 (flat parameters)"), tr("FSDP2 (fully_shard)")},
             tr("PyTorch FSDP's API: FSDP2 (fully_shard, torchtitan's) copies each gathered parameter out of the "
                "all-gather buffer and each gradient into the reduce-scatter buffer on the compute stream; FSDP1's "
                "layers use views of its flat parameters."));
    addCombo(plan, Field::Zero, tr("ZeRO stage"), {tr("0: replicate"), tr("1: shard optimizer"), tr("2: + gradients"), tr("3: + parameters")},
             tr("Rajbhandari 2020: what is sharded across data-parallel ranks."));
    addToggle(plan, Field::SequenceParallel, tr("Sequence parallel"), tr("Shards norms and dropout activations across TP ranks."));
    addToggle(plan, Field::OverlapDp, tr("Overlap gradient sync with backward"), tr("Bucketed all-reduce starts while backward runs."));
    // In the order of GradReduce: Auto, Fp32, Bf16.
    addCombo(plan, Field::GradReduce, tr("Gradient reduction"), {tr("Framework's"), tr("FP32"), tr("BF16")},
             tr("Element type of the gradient reduce-scatter / all-reduce. Framework's: fp32 when the framework "
                "is named Megatron-LM (forced for BF16 in arguments.py, until --grad-reduce-in-bf16) or PyTorch FSDP "
                "(torchtitan's mixed_precision_reduce), and in DeepSpeed's pipeline engine with BF16; otherwise the "
                "16-bit gradients."));

    auto *advancedBox = new QGroupBox(tr("Advanced"), content);
    advancedBox->setCheckable(true);
    advancedBox->setChecked(false);
    auto *advancedContent = new QWidget(advancedBox);
    auto *advanced = new QVBoxLayout(advancedContent);
    advanced->setContentsMargins(0, 0, 0, 0);
    auto *advancedOuter = new QVBoxLayout(advancedBox);
    advancedOuter->addWidget(advancedContent);
    advancedContent->setVisible(false);
    connect(advancedBox, &QGroupBox::toggled, advancedContent, &QWidget::setVisible);
    column->addWidget(advancedBox);
    addSlider(advanced, Field::IntraBandwidth, tr("Intra-node bandwidth"), tr("GB/s"), tr("Per GPU, per direction."))
        ->setRange(1, 5000, Scale::Log, 1);
    addSlider(advanced, Field::InterBandwidth, tr("Inter-node bandwidth"), tr("Gb/s"), tr("Per NIC, per direction."))
        ->setRange(1, 3200, Scale::Log, 0);
    addSlider(advanced, Field::IntraLatency, tr("Intra-node latency"), tr("µs"), tr("Alpha per algorithm step."))->setRange(0, 100, Scale::Linear, 1);
    addSlider(advanced, Field::InterLatency, tr("Inter-node latency"), tr("µs"), tr("Alpha per algorithm step."))->setRange(0, 200, Scale::Linear, 1);
    addSlider(advanced, Field::IntraEfficiency, tr("Intra-node achievable"), tr("%"), tr("Share of nominal bandwidth NCCL reaches."))
        ->setRange(1, 100, Scale::Linear, 0);
    addSlider(advanced, Field::InterEfficiency, tr("Inter-node achievable"), tr("%"), tr("Share of nominal bandwidth NCCL reaches."))
        ->setRange(1, 100, Scale::Linear, 0);
    addCombo(advanced, Field::CrossEntropy, tr("Loss kernel"),
             {tr("Framework's"), tr("Megatron vocab-parallel"), tr("PyTorch (fp32 logits)"), tr("Fused (16-bit logits)")},
             tr("What the LM head's cross entropy keeps and moves per logit: 6, 12 or 4 bytes kept."));
    // In the order of Kernels: Auto, Fused, Eager.
    addCombo(advanced, Field::Kernels, tr("Elementwise kernels"),
             {tr("Framework's"), tr("Fused (Megatron/TE, torch.compile)"), tr("PyTorch eager")},
             tr("Norms, activation, rotary as fused kernels or one PyTorch op at a time (an RMSNorm moves 36 bytes "
                "per element eager, 4 fused). Framework's: eager under FSDP but for FP8 (torchao's float8, run with "
                "torch.compile: fused) and under DeepSpeed without tensor or pipeline parallelism (Hugging Face "
                "models), fused under Megatron and DeepSpeed's pipeline engine."));
    // In the order of NormKind: Auto, LayerNorm, RMSNorm.
    addCombo(advanced, Field::Norm, tr("Normalisation"), {tr("By MLP (RMSNorm with SwiGLU)"), tr("LayerNorm"), tr("RMSNorm")},
             tr("What an eager RMSNorm costs depends on it; LayerNorm is one native kernel either way."));
    addSlider(advanced, Field::Rails, tr("Rails (NICs per node)"), QString(), tr("Each GPU gets rails / GPUs-per-node of a NIC."))
        ->setRange(1, 16, Scale::Linear, 0);
    addSlider(advanced, Field::Oversubscription, tr("Oversubscription"), tr(": 1"), tr("Above-leaf oversubscription; 1 = non-blocking."))
        ->setRange(1, 8, Scale::Linear, 1);
    m_bucketAuto = new QCheckBox(tr("Framework's DP bucket"), advancedContent);
    m_bucketAuto->setToolTip(tr("Megatron-Core: max(40M, 1M × DP) parameters; DeepSpeed: 5e8 elements; FSDP: one block."));
    advanced->addWidget(m_bucketAuto);
    // Leaving the framework's bucket keeps the bucket it ran with, now explicit.
    connect(m_bucketAuto, &QCheckBox::toggled, this, [this](bool on) {
        if (m_updating)
            return;
        emit fieldEdited(Field::Bucket, on ? kFrameworkBucket
                                           : m_sliders.value(Field::Bucket)->value() * fieldInfo(Field::Bucket).siPerDisplay);
        emit editFinished();
    });
    addSlider(advanced, Field::Bucket, tr("DP bucket"), tr("MB"), tr("Gradient bucket size (PyTorch DDP default 25 MB); 0 = one bucket."))
        ->setRange(0, 20000, Scale::Linear, 0);   // Megatron's bucket reaches 16 GB at DP 4096
    addSlider(advanced, Field::Compression, tr("Gradient compression"), tr("x"), tr("Ratio by which gradient bytes shrink."))
        ->setRange(1, 64, Scale::Log, 1);
    addSlider(advanced, Field::Jitter, tr("Straggler jitter"), tr("%"), tr("Per-GPU step-time variation (coefficient of variation)."))
        ->setRange(0, 50, Scale::Linear, 1);
    addSlider(advanced, Field::LocalSgd, tr("Local SGD interval"), tr("steps"), tr("Synchronise gradients every K steps."))
        ->setRange(1, 64, Scale::Log, 0);
    addToggle(advanced, Field::TpOverlap, tr("Overlap TP communication"), tr("TP collectives hidden behind GEMMs (Megatron-Core)."));
    addToggle(advanced, Field::TpAsyncGrad, tr("Asynchronous TP gradients"),
              tr("Megatron and TransformerEngine hide the column-parallel GEMMs' backward TP collectives behind their "
                 "gradient GEMMs (on since Megatron-LM Aug. 2021; off for older runs)."));

    column->addStretch(1);
    setWidget(content);
    setWidgetResizable(true);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setMinimumWidth(340);
}

QuantitySlider *ParameterPanel::addSlider(QLayout *layout, Field field, const QString &label, const QString &unit,
                                          const QString &help)
{
    auto *slider = new QuantitySlider(label, unit, layout->parentWidget());
    slider->setHelp(help);
    layout->addWidget(slider);
    m_sliders.insert(field, slider);
    connect(slider, &QuantitySlider::valueEdited, this, [this, field](double v) {
        if (!m_updating)
            emit fieldEdited(field, v * fieldInfo(field).siPerDisplay);
    });
    connect(slider, &QuantitySlider::editFinished, this, [this] {
        if (!m_updating)
            emit editFinished();
    });
    return slider;
}

void ParameterPanel::addRecomputeModules(QLayout *layout)
{
    m_modulesRow = new QWidget(layout->parentWidget());
    auto *grid = new QGridLayout(m_modulesRow);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setVerticalSpacing(2);
    auto *title = new QLabel(tr("Recomputed modules (Megatron selective)"), m_modulesRow);
    grid->addWidget(title, 0, 0, 1, 2);
    // Megatron-Core's recompute_modules, each with what it drops and replays (model/memory.cpp, kernels.cpp).
    const struct { unsigned flag; const char *label; const char *help; } modules[] = {
        {kRecomputeCoreAttn, QT_TR_NOOP("Core attention"), QT_TR_NOOP("core_attn: the fused attention's inputs are not kept; it runs again in backward.")},
        {kRecomputeLayerNorm, QT_TR_NOOP("Layer norms"), QT_TR_NOOP("layernorm: the norms Transformer Engine does not fuse into the next GEMM (MLA's input norm, a MoE layer's MLP norm).")},
        {kRecomputeMlaUpProj, QT_TR_NOOP("MLA up projections"), QT_TR_NOOP("mla_up_proj: latent attention's per-head Q, K and V are made again from the latents.")},
        {kRecomputeMlp, QT_TR_NOOP("Dense MLP"), QT_TR_NOOP("mlp: a dense layer's MLP (its TP collectives too); MoE layers are not affected.")},
        {kRecomputeMoeAct, QT_TR_NOOP("Expert activation"), QT_TR_NOOP("moe_act: the routed experts' activation function output.")},
        {kRecomputeSharedExperts, QT_TR_NOOP("Shared experts"), QT_TR_NOOP("shared_experts: the shared experts' MLP (and its TP collectives).")},
        {kRecomputeMoe, QT_TR_NOOP("Whole MoE layer"), QT_TR_NOOP("moe: the router, dispatch, experts and combine: the expert all-to-alls run again in backward.")},
    };
    int i = 0;
    for (const auto &m : modules) {
        auto *box = new QCheckBox(tr(m.label), m_modulesRow);
        box->setToolTip(tr(m.help));
        grid->addWidget(box, 1 + i / 2, i % 2);
        ++i;
        m_moduleChecks.insert(m.flag, box);
        connect(box, &QCheckBox::toggled, this, [this, flag = m.flag](bool on) {
            if (m_updating)
                return;
            emit fieldEdited(Field::RecomputeModules, double(on ? (m_recomputeModules | flag) : (m_recomputeModules & ~flag)));
            emit editFinished();
        });
    }
    m_modulesRow->setToolTip(tr("What Megatron-Core's selective recompute (--recompute-modules) drops and replays; "
                                "read under selective recompute with the Megatron-LM framework only (a box turns it on)."));
    layout->addWidget(m_modulesRow);
    QLabel *problem = problemLabel(layout->parentWidget());
    layout->addWidget(problem);
    m_comboProblems.insert(Field::RecomputeModules, problem);
}

QComboBox *ParameterPanel::addCombo(QLayout *layout, Field field, const QString &label, const QStringList &items,
                                    const QString &help)
{
    auto *row = new QWidget(layout->parentWidget());
    auto *form = new QFormLayout(row);
    form->setContentsMargins(0, 2, 0, 2);
    auto *combo = new QComboBox(row);
    combo->addItems(items);
    combo->setToolTip(help);
    form->addRow(label, combo);
    auto *problem = problemLabel(row);
    form->addRow(problem);
    layout->addWidget(row);
    m_combos.insert(field, combo);
    m_comboProblems.insert(field, problem);
    connect(combo, &QComboBox::activated, this, [this, field](int index) {
        if (m_updating)
            return;
        emit fieldEdited(field, index);
        emit editFinished();
    });
    return combo;
}

QCheckBox *ParameterPanel::addToggle(QLayout *layout, Field field, const QString &label, const QString &help)
{
    auto *toggle = new QCheckBox(label, layout->parentWidget());
    toggle->setToolTip(help);
    layout->addWidget(toggle);
    m_toggles.insert(field, toggle);
    connect(toggle, &QCheckBox::toggled, this, [this, field](bool on) {
        if (m_updating)
            return;
        emit fieldEdited(field, on ? 1 : 0);
        emit editFinished();
    });
    return toggle;
}

void ParameterPanel::setEffectiveBucket(double bytes)
{
    if (m_bucketAuto->isChecked() && bytes > 0)
        m_sliders.value(Field::Bucket)->setValue(bytes / fieldInfo(Field::Bucket).siPerDisplay);   // does not emit
}

QComboBox *ParameterPanel::addPresetCombo(QLayout *layout, const QString &kind, const QString &label, const QString &help)
{
    auto *row = new QWidget(layout->parentWidget());
    auto *form = new QFormLayout(row);
    form->setContentsMargins(0, 2, 0, 2);
    auto *combo = new QComboBox(row);
    combo->setToolTip(help);
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(14);
    form->addRow(label, combo);
    layout->addWidget(row);
    m_presetCombos.insert(kind, combo);
    connect(combo, &QComboBox::activated, this, [this, kind, combo](int index) {
        if (m_updating)
            return;
        const QString name = combo->itemData(index).toString();
        if (!name.isEmpty())
            emit presetChosen(kind, name);
    });
    return combo;
}

void ParameterPanel::setPresetLists(const QList<PresetChoice> &models, const QList<PresetChoice> &gpus,
                                    const QList<PresetChoice> &links)
{
    m_updating = true;
    auto fill = [](QComboBox *combo, const QList<PresetChoice> &choices) {
        combo->clear();
        for (const PresetChoice &c : choices) {
            combo->addItem(c.label, c.name);
            if (!c.accuracy.isEmpty())   // rich text, so the tooltip wraps
                combo->setItemData(combo->count() - 1, QStringLiteral("<p>%1</p>").arg(c.accuracy.toHtmlEscaped()), Qt::ToolTipRole);
        }
    };
    fill(m_presetCombos.value(QStringLiteral("model")), models);
    fill(m_presetCombos.value(QStringLiteral("gpu")), gpus);
    fill(m_presetCombos.value(QStringLiteral("intra_node")), links);
    fill(m_presetCombos.value(QStringLiteral("inter_node")), links);
    m_updating = false;
}

void ParameterPanel::clearProblems()
{
    for (QuantitySlider *s : std::as_const(m_sliders))
        s->setProblem({});
    for (QLabel *l : std::as_const(m_comboProblems))
        l->setVisible(false);
    m_generalProblem->setVisible(false);
}

void ParameterPanel::setScenario(const Scenario &s, const ValidDegrees &degrees, double parameterCount,
                                 const QString &shapeNote, const Problem &problem, Field changed)
{
    m_updating = true;
    // Every control shows its field's value in the table's display unit (model/fields.h).
    m_sliders.value(Field::Tp)->setSteps(toDoubles(degrees.tp));
    m_sliders.value(Field::Pp)->setSteps(toDoubles(degrees.pp));
    m_sliders.value(Field::Cp)->setSteps(toDoubles(degrees.cp));
    m_sliders.value(Field::Dp)->setSteps(toDoubles(degrees.dp));
    m_sliders.value(Field::GlobalBatch)->setSteps(degrees.globalBatch);
    m_sliders.value(Field::Ep)->setSteps(toDoubles(degrees.ep));
    m_sliders.value(Field::Ep)->setRange(1, std::max(1, s.workload.experts), Scale::Steps, 0);
    for (Field f : {Field::Tp, Field::Pp, Field::Cp, Field::Dp})
        m_sliders.value(f)->setRange(1, std::max(1, s.cluster.gpus) * 64.0, Scale::Steps, 0);
    for (auto it = m_sliders.begin(); it != m_sliders.end(); ++it) {
        const double si = it.key() == Field::Parameters ? parameterCount : fieldValue(s, it.key());
        if (it.key() != Field::Bucket || si >= 0)
            it.value()->setValue(si / fieldInfo(it.key()).siPerDisplay);
    }
    for (auto it = m_combos.begin(); it != m_combos.end(); ++it)
        it.value()->setCurrentIndex(int(std::lround(fieldValue(s, it.key()))));
    for (auto it = m_toggles.begin(); it != m_toggles.end(); ++it)
        it.value()->setChecked(fieldValue(s, it.key()) != 0);
    m_sliders.value(Field::Bucket)->setEnabled(s.plan.bucketBytes >= 0);
    m_bucketAuto->setChecked(s.plan.bucketBytes < 0);
    m_sliders.value(Field::VirtualStages)->setEnabled(s.plan.schedule == Schedule::Interleaved);
    // Inputs that apply only under another one stay as set but greyed out until it does.
    const bool fp8 = s.training.precision == Precision::Fp8;
    m_combos.value(Field::Fp8Recipe)->setEnabled(fp8);
    m_toggles.value(Field::Fp8Params)->setEnabled(fp8);
    m_toggles.value(Field::Fp8Attention)->setEnabled(fp8);
    m_sliders.value(Field::RecomputeLayers)->setEnabled(s.training.recompute == Recompute::Full);
    m_recomputeModules = s.training.recomputeModules;
    for (auto it = m_moduleChecks.begin(); it != m_moduleChecks.end(); ++it)
        it.value()->setChecked((s.training.recomputeModules & it.key()) != 0);
    // Live under Megatron-LM (a box turns selective recompute on); a module of a part the model
    // lacks is greyed out unless set, so that it can be cleared (Megatron-Core refuses mla_up_proj
    // without latent attention).
    m_modulesRow->setEnabled(resolveFramework(s.plan) == Framework::Megatron);
    const bool moeModel = s.workload.experts > 0;
    const auto applies = [&](unsigned flag, bool part) {
        m_moduleChecks.value(flag)->setEnabled(part || (s.training.recomputeModules & flag));
    };
    applies(kRecomputeMoeAct, moeModel);
    applies(kRecomputeMoe, moeModel);
    applies(kRecomputeSharedExperts, moeModel && s.workload.sharedExpertFfn > 0);
    applies(kRecomputeMlaUpProj, isMla(s.workload));
    // Megatron-Core's --cpu-offloading: pp 1, no recompute (other settings are errors naming the field).
    m_sliders.value(Field::OffloadLayers)->setEnabled(s.training.recompute == Recompute::None && s.plan.pp == 1
                                                      && resolveFramework(s.plan) == Framework::Megatron);
    m_combos.value(Field::CpComm)->setEnabled(s.plan.cp > 1);
    // Expert parallelism applies to mixture-of-experts models only (validate() names plan.ep otherwise).
    m_sliders.value(Field::Ep)->setEnabled(s.workload.experts > 0);
    m_toggles.value(Field::EpOverlap)->setEnabled(s.workload.experts > 0 && s.plan.ep > 1);
    m_combos.value(Field::EpDispatcher)->setEnabled(s.workload.experts > 0 && s.plan.ep > 1);
    m_combos.value(Field::FsdpVersion)->setEnabled(resolveFramework(s.plan) == Framework::Fsdp && s.plan.zeroStage >= 2);

    auto selectPreset = [this](const QString &kind, const std::string &name) {
        QComboBox *combo = m_presetCombos.value(kind);
        int index = combo->findData(QString::fromStdString(name));
        if (index < 0) {
            // A custom or derived value: show it as such rather than pretending it is a preset.
            const QString shown = name.empty() || name == "custom" ? tr("custom (not a preset)")
                                                                   : tr("%1 (not a preset)").arg(QString::fromStdString(name));
            const int customIndex = combo->findData(QString());
            // Replacing an unchanged entry would relay out and repaint the whole panel on every edit.
            if (customIndex < 0 || combo->itemText(customIndex) != shown) {
                if (customIndex >= 0)
                    combo->removeItem(customIndex);
                combo->insertItem(0, shown, QString());
            }
            index = combo->findData(QString());
        }
        combo->setCurrentIndex(index);
    };
    selectPreset(QStringLiteral("model"), s.workload.name);
    selectPreset(QStringLiteral("gpu"), s.cluster.gpu.name);
    selectPreset(QStringLiteral("intra_node"), s.cluster.intraNode.name);
    selectPreset(QStringLiteral("inter_node"), s.cluster.interNode.name);
    // The shape the numbers use: the derivation's note when the parameter count derived it,
    // else the preset's or file's shape.
    m_shapeNote->setText(shapeNote.isEmpty() ? fmt::workloadShape(s.workload) : shapeNote);

    clearProblems();
    if (!problem.field.empty()) {
        const Field named = fieldForKey(problem.field);
        const QString words = named != Field::None ? QString::fromLatin1(fieldInfo(named).name) : QString::fromStdString(problem.field);
        const QString message = QString::fromStdString(problem.message);
        bool shown = false;
        QWidget *scrollTo = nullptr;
        // At the input the reason names, and at the one just changed (with the name of the other).
        for (Field f : {named, changed}) {
            if (f == Field::None || (f == changed && changed == named && shown))
                continue;
            const QString text = f == named ? message : tr("The plan cannot run: %1: %2").arg(words, message);
            if (QuantitySlider *slider = m_sliders.value(f)) {
                slider->setProblem(text);
                scrollTo = scrollTo ? scrollTo : slider;
                shown = true;
            } else if (QLabel *label = m_comboProblems.value(f)) {
                label->setText(text);
                label->setVisible(true);
                scrollTo = scrollTo ? scrollTo : label;
                shown = true;
            }
        }
        if (!shown) {
            m_generalProblem->setText(tr("The plan cannot run: %1: %2").arg(words, message));
            m_generalProblem->setVisible(true);
            scrollTo = m_generalProblem;
        }
        if (changed != Field::None) {
            if (QuantitySlider *slider = m_sliders.value(changed))
                scrollTo = slider;
        }
        if (scrollTo)
            ensureWidgetVisible(scrollTo);
    }
    m_updating = false;
}

} // namespace ts
