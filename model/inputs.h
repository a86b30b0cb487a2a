// SPDX-License-Identifier: MIT
// Input value types of the cost model: workload, training, cluster, plan.
// Plain structs with defaults; all quantities in SI base units (see units.h).
#pragma once

#include <array>
#include <string>

namespace ts {

enum class MlpKind { Gelu, SwiGlu };                 // GeLU: two h x ffn matrices; SwiGLU: three
enum class Precision { Fp32, Bf16, Fp16, Fp8 };
enum class Recompute { None, Selective, Full };
/// What selective recompute recomputes in Megatron-Core (--recompute-modules, a set of these flags;
/// transformer_config.py recompute_modules, default core_attn): the core attention; the experts'
/// activation function; the two layer norms; MLA's up projections and rotary; the dense MLP; the
/// whole MoE layer (its all-to-alls too); the shared experts.
enum RecomputeModule : unsigned {
    kRecomputeCoreAttn = 1u,
    kRecomputeMoeAct = 2u,
    kRecomputeLayerNorm = 4u,
    kRecomputeMlaUpProj = 8u,
    kRecomputeMlp = 16u,
    kRecomputeMoe = 32u,
    kRecomputeSharedExperts = 64u,
    kRecomputeAllModules = 127u,
};
enum class Schedule { GPipe, OneFOneB, Interleaved, ZeroBubbleH1, DualPipeV };
enum class Transport { Rdma, Tcp };
/// How the GPUs of a node reach each other: through NVSwitches (every GPU at full NVLink rate to
/// any peer), through PCIe switches / the root complex, or a point-to-point mesh (AMD xGMI).
/// Auto: from the intra-node link's name (pcie* -> Pcie, otherwise NvSwitch).
enum class IntraFabric { Auto, NvSwitch, Pcie, Mesh };
/// NVLink SHARP (multimem reductions in third-generation NVSwitches). Auto: on for NVSwitch nodes
/// with NVLink 4 or newer (H100, H200, B200; 450 GB/s per GPU per direction or more).
enum class Nvls { Auto, Off, On };
/// The four parallel dimensions in Megatron's rank order, innermost first.
enum class ParallelDim { Tp, Cp, Dp, Pp };
/// Flash: the GPU's best fused attention kernel (FlashAttention-3 / cuDNN on Hopper, as Transformer
/// Engine runs it; FlashAttention-2 on Ampere), no s x s tensor; Flash2: the FlashAttention-2 kernel
/// on any GPU (flash-attn 2.x, PyTorch SDPA's flash backend), same memory; Materialized: stored scores [K22];
/// Triton: FlashAttention's Triton kernel (flash_attn_triton.py, llm-foundry's attn_impl triton), same memory.
enum class Attention { Flash, Materialized, Flash2, Triton };
/// Who keeps the model states and how: decides bytes per parameter, when ZeRO stages communicate
/// and which plans can run. Auto derives it from plan.zero (see resolveFramework).
enum class Framework { Auto, Megatron, DeepSpeed, Fsdp };
/// Data type of the DP gradient reduction (and of Megatron's main gradients): Auto = the framework's.
enum class GradReduce { Auto, Fp32, Bf16 };
/// How context parallelism exchanges K and V (Megatron-LM --cp-comm-type, Transformer Engine
/// cp_comm_type): P2p, a ring of K/V blocks hidden behind attention (the default of both);
/// AllGather, K and V gathered whole before attention and dK/dV reduce-scattered after, in the
/// open (as Llama 3 runs context parallelism); A2a, DeepSpeed-Ulysses' all-to-alls that trade the
/// sequence shard for a head shard around attention, in the open.
enum class CpComm { P2p, AllGather, A2a };
// How tokens reach their experts (Megatron-Core --moe-token-dispatcher-type): AllToAll = NCCL
// all-to-all of every routed copy (MoEAlltoAllTokenDispatcher); DeepEp and HybridEp = the flex
// dispatcher's backends, which send a token once per destination node over the network and
// once per destination GPU inside it (deduplicated), the same cost here.
enum class EpDispatcher { AllToAll, DeepEp, HybridEp };
/// Adam's states: fp32 master weights and moments (mixed precision, [ZeRO]), or 16-bit moments
/// updating the 16-bit weights in place with no master copy (Apex DistributedFusedAdam
/// dtype=bf16, as NeMo's Nemotron-4 340B config runs it).
// Adam's states: fp32 master weights and moments (Fp32); 16-bit moments updating the 16-bit weights
// with no master copy (Bf16, Apex DistributedFusedAdam dtype bf16); fp32 master weights with 16-bit
// moments (Bf16Moments, Megatron-Core's precision-aware optimizer with exp_avg_dtype and
// exp_avg_sq_dtype bf16, as Megatron-Bridge's DeepSeek-V3 recipe runs it).
enum class OptimizerStates { Fp32, Bf16, Bf16Moments };
/// The cross-entropy kernel behind the LM head: Auto = the framework's (Megatron-LM's
/// vocab-parallel one; PyTorch's F.cross_entropy on fp32 logits for DeepSpeed and FSDP);
/// Fused = a kernel on the 16-bit logits (flash-attn's CrossEntropyLoss as llm-foundry runs it,
/// Apex xentropy) that keeps them and writes the gradient beside them.
enum class CrossEntropy { Auto, Megatron, PyTorch, Fused };
/// The layer's normalisation: LayerNorm (GPT, BLOOM, MPT, Nemotron) or RMSNorm (Llama). Auto:
/// RMSNorm with a SwiGLU MLP, LayerNorm otherwise, as those model families pair them.
enum class NormKind { Auto, LayerNorm, RmsNorm };
/// How the memory-bound kernels run: Fused (Megatron-LM / Transformer Engine kernels, or
/// torch.compile) or Eager (PyTorch eager ops, one kernel per op, as torchtitan without compile,
/// Hugging Face and llm-foundry run them). Auto: Eager under FSDP (but for FP8, torchao's float8,
/// run compiled) and under DeepSpeed without TP or PP (Hugging Face models), Fused
/// otherwise (resolveKernels).
enum class Kernels { Auto, Fused, Eager };
/// How FP8 GEMM inputs are scaled (Megatron-LM --fp8-recipe, Transformer Engine recipes):
/// Delayed = one scale per tensor from the amax history (TE DelayedScaling, cast in one pass);
/// Tensorwise = one scale per tensor from this tensor's amax (TE Float8CurrentScaling, torchao
/// tensorwise: an amax pass, then the cast); Mxfp8 = one E8M0 scale per 32 elements (TE
/// MXFP8BlockScaling, Blackwell's block-scaled tensor cores); Blockwise = one fp32 scale per 128
/// elements or 128x128 tile (TE Float8BlockScaling, DeepSeek-V3's recipe; emulated on Hopper).
// Nvfp4: Transformer Engine's NVFP4BlockScaling, which te.autocast runs like the FP8 recipes:
// the GEMMs take 4-bit E2M1 operands (an E4M3 scale per 16 elements and one fp32 per tensor).
enum class Fp8Recipe { Delayed, Tensorwise, Mxfp8, Blockwise, Nvfp4 };

/// Transformer shape. Megatron SC21 notation: L layers, h hidden, a heads, V vocabulary, s sequence.
struct Workload
{
    std::string name;
    int layers = 32;
    int hidden = 4096;
    int heads = 32;
    int kvHeads = 32;            // grouped-query attention when < heads
    int ffnHidden = 16384;
    MlpKind mlp = MlpKind::Gelu;
    bool tiedEmbeddings = true;  // LM head shares the input embedding matrix
    bool learnedPositions = false; // GPT-style learned position embeddings (s x h parameters)
    int vocab = 51200;
    int seqLen = 2048;
    Attention attention = Attention::Flash;
    bool causal = true;          // decoder LM: kernels skip the masked half of Q K^T and P V
    NormKind norm = NormKind::Auto;
    // Width of one attention head; 0 = hidden / heads. Models that decouple it (Qwen3-32B: 64
    // heads of 128 on a hidden width of 5120; Gemma 2 and 3, Mistral NeMo) give it.
    int headDim = 0;
    bool qkNorm = false;         // RMSNorm on each query and key head (Qwen3, OLMo 2, Gemma 3)
    // Sliding-window attention (causal): each query sees itself and the slidingWindow - 1 tokens
    // before it; 0 = full attention. With fullAttentionEvery = N > 0, layers N, 2N, ... (1-based)
    // keep full attention (Megatron-Core window_size / window_attn_skip_freq; GPT-OSS 128 with
    // N = 2, Gemma 3 1024 with N = 6); 0 = every layer windowed (Mistral 7B 4096).
    int slidingWindow = 0;
    int fullAttentionEvery = 0;
    // YaRN's attention factor (Peng et al. 2023, arXiv:2309.00071, Sec. 3.4: sqrt(1/t) = 0.1 ln(s)
    // + 1 for a context scale s), which scales RoPE's cos and sin: Hugging Face's
    // rope_scaling.attention_factor, by default 0.1 ln(factor) + 1 (gpt-oss: factor 32, 1.3466);
    // DeepSeek's equal mscale and mscale_all_dim give 1. 1 = plain RoPE. Under Megatron-Core a
    // factor other than 1 runs RoPE unfused (KernelDefaults [ROPE-MSCALE]).
    double ropeAttentionFactor = 1.0;
    // gpt-oss's experts (the released config; Megatron-Bridge's bridge: add_bias_linear,
    // activation_func_clamp_value 7.0): linear biases on the experts' projections, and the GLU's
    // gate input clamped above at gluClamp and its linear input to [-gluClamp, gluClamp] (0 = no
    // clamp). Neither changes FLOPs; Megatron-Core runs both partly op by op (KernelDefaults
    // [MOE-BIAS-CLAMP]).
    bool expertBias = false;
    double gluClamp = 0;
    // Mixture of experts (every layer): `experts` routed FFN experts, each token sent to
    // `expertsPerToken` of them (top-k), each expert an FFN of `moeFfnHidden` (0 = ffnHidden) of
    // the layer's MLP kind. 0 experts = dense.
    int experts = 0;
    int expertsPerToken = 2;
    int moeFfnHidden = 0;
    // MoE models as DeepSeek-V3 builds them (Liu et al. 2024, arXiv:2412.19437, Sec. 2.1.2 and
    // 4.2; Megatron-Core moe_layer_freq, moe_shared_expert_intermediate_size): the first
    // `firstDenseLayers` layers are dense MLPs of ffnHidden, and every MoE layer also runs a
    // shared-expert MLP of `sharedExpertFfn` (all shared experts together; 0 = none) on every token.
    int firstDenseLayers = 0;
    int sharedExpertFfn = 0;
    // Multi-head latent attention (DeepSeek-V2 arXiv:2405.04434 Sec. 2.1; Megatron-Core
    // MLASelfAttention), when kvLoraRank > 0: K and V come up from a kvLoraRank latent (plus a
    // shared rotary key of ropeHeadDim), Q from a qLoraRank latent (0 = projected from h); each
    // head's query and key are headDim (no rotary) + ropeHeadDim wide, its value vHeadDim (0 = headDim).
    int qLoraRank = 0;
    int kvLoraRank = 0;
    int ropeHeadDim = 0;
    int vHeadDim = 0;
    // Multi-token prediction (DeepSeek-V3 Sec. 2.2, Megatron-Core mtp_num_layers): each module is one
    // more transformer layer (of the last layer's kind), a 2h -> h projection and another pass of the
    // shared output head and loss, on the last pipeline stage.
    int mtpLayers = 0;
    // Group-limited routing (Megatron-Core moe_router_num_groups, moe_router_group_topk; DeepSeek-V3
    // Sec. 2.1.2 node-limited routing, n_group 8 and topk_group 4 in its config): the experts in
    // moeRouterGroups equal groups, a token's top-k taken from its moeRouterGroupTopk best groups.
    // 0 = no groups.
    int moeRouterGroups = 0;
    int moeRouterGroupTopk = 0;
    // How the model compared with measured training runs of this workload (a preset's text, shown
    // by Explain, the report and the model picker); not read by the cost model.
    std::string accuracy{};

    bool operator==(const Workload &) const = default;
};

struct Training
{
    long long globalBatch = 512;    // sequences per optimizer step
    int microBatch = 1;             // sequences per micro-batch (b)
    Precision precision = Precision::Bf16;
    Recompute recompute = Recompute::None;
    // With full recompute: the layers of each model chunk that are recomputed, the first ones
    // (Megatron --recompute-method block --recompute-num-layers N); the others keep their
    // activations. 0 = every layer.
    int recomputeLayers = 0;
    // With selective recompute under Megatron: the modules recomputed (RecomputeModule flags).
    unsigned recomputeModules = kRecomputeCoreAttn;
    // Activation offloading to host memory (Megatron-Core --cpu-offloading with
    // --cpu-offloading-num-layers N, Transformer Engine get_cpu_offload_context): the first N
    // layers' saved activations are copied to host memory during forward and back before their
    // backward, overlapped with compute. 0 = none. Megatron runs it with pp 1 and no recompute.
    int offloadLayers = 0;
    // FP8 primary weights (Megatron --fp8-param-gather, NeMo fp8_params, TE fp8_model_init): the
    // GEMM weights live in FP8 without a 16-bit copy and the DP parameter all-gather moves FP8;
    // torchao's FSDP2 float8 all-gather (enable_fsdp_float8_all_gather) gathers them in FP8.
    bool fp8Params = false;
    Fp8Recipe fp8Recipe = Fp8Recipe::Delayed;   // FP8 scaling recipe (applies under precision fp8)
    // FP8 dot-product attention (Megatron --fp8-dot-product-attention, Megatron-Bridge and NeMo
    // fp8_dot_product_attention, TE's recipe fp8_dpa): the fused attention kernel runs on FP8 Q, K, V
    // at the GPU's attentionEfficiencyFp8 (Mxfp8 under fp8_recipe mxfp8). Needs precision fp8.
    bool fp8Attention = false;
    // Transformer Engine's CuTeDSL fused grouped MLP (NVTE_CUTEDSL_FUSED_GROUPED_MLP, MXFP8 on
    // Blackwell; Megatron-Bridge's 26.08 gpt-oss recipes): the experts' biases, GLU and clamp run
    // inside the grouped GEMMs (cudnn-frontend grouped_gemm_glu / dglu_dbias), nothing op by op.
    // Read only under precision fp8 with fp8_recipe mxfp8; kept and ignored otherwise.
    bool moeFusedMlp = false;
    OptimizerStates optimizerStates = OptimizerStates::Fp32;
    CrossEntropy crossEntropy = CrossEntropy::Auto;
    Kernels kernels = Kernels::Auto;
    double tokens = 300e9;          // training budget in tokens
    double computeSecondsOverride = 0.0; // > 0: replaces the computed on-GPU time of one step

    bool operator==(const Training &) const = default;
};

struct Gpu
{
    std::string name;
    double peakFlops16 = 312e12;     // dense BF16/FP16 tensor FLOP/s
    double peakFlops8 = 0.0;         // dense FP8 FLOP/s; 0 = not supported (falls back to 16-bit)
    double peakFlops32 = 0.0;        // FP32 training FLOP/s; 0 = unknown (uses peakFlops16 / 2)
    double memoryBytes = 80.0 * 1024 * 1024 * 1024;
    double memoryBytesPerSecond = 2.039e12;
    // Kernel model (see model/kernels.h). 0 = not given: the generic defaults of KernelDefaults.
    int smCount = 0;                 // streaming multiprocessors (CUs) for wave quantization; 0 = KernelDefaults::smCount
    // The GEMM tile the GPU's fast kernels compute, and over how many SMs: 128 x 256 on one SM on
    // Hopper; 256 x 256 over an SM pair on Blackwell (2-CTA tcgen05 MMA), which has no full-rate
    // smaller tile. 0 = KernelDefaults (128 x 256 on 1 SM).
    int gemmTileM = 0, gemmTileN = 0, gemmTileSms = 0;
    // FP8 copies Transformer Engine keeps of each cast tensor: 2 on Hopper, whose FP8 GEMMs take
    // only the TN layout (a row-wise copy and a transposed one); 1 on Blackwell, which runs any
    // layout. 0 = KernelDefaults (2).
    int fp8Copies = 0;
    // Block-scaled FP8 tensor cores (MXFP8: Blackwell and later), needed by fp8_recipe mxfp8.
    bool mxfp8 = false;
    double gemmEfficiency = 0;       // best measured dense BF16 GEMM / peak (MAMF)
    double gemmEfficiencyFp8 = 0;    // best measured dense FP8 GEMM / FP8 peak
    // The same with fast accumulation (cuBLAS FAST_ACCUM: the tensor cores' own accumulator, not
    // promoted to FP32 every few MMAs), which Transformer Engine and torchao use for the forward
    // GEMM of per-tensor FP8 recipes on Hopper; 0 = as gemmEfficiencyFp8 (Blackwell accumulates in
    // FP32 either way).
    double gemmEfficiencyFp8Fast = 0;
    double attentionEfficiency = 0;  // fused attention fwd+bwd at long sequences / 16-bit peak
    double attentionEfficiencyFa2 = 0;   // the same for the FlashAttention-2 kernel
    // Tensor-core rate a saturated GPU holds at its power limit over the burst rate the figures
    // above were measured at (MSMF / MAMF): the clock a training run settles at.
    double sustainedFraction = 0;
    // Copy bandwidth between this GPU and host memory, per direction, while the node's GPUs all
    // copy (activation offloading). 0 = MemoryDefaults::hostBytesPerSecond.
    double hostBytesPerSecond = 0;
    // Host memory (CPU DRAM) per GPU, the node's divided by its GPUs: where offloaded activations
    // go. 0 = MemoryDefaults::hostMemoryBytes.
    double hostMemoryBytes = 0;
    // Operations (model/economics.h). 0 = not given: the defaults there.
    double tdpWatts = 0;             // board power limit (datasheet TDP)
    double pricePerHour = 0;         // on-demand price of one GPU-hour, USD
    // How this model compares with measured training runs on this GPU (a preset's summary of
    // README "Validation"), shown beside the compute formula; empty when none was checked.
    std::string accuracy{};
    // NVFP4 (fp8_recipe nvfp4), last so that positional initialisers keep their meaning.
    double peakFlops4 = 0.0;         // dense NVFP4 FLOP/s (Blackwell); 0 = no FP4 tensor cores
    double gemmEfficiencyFp4 = 0;    // measured dense NVFP4 GEMM / FP4 peak (burst-clock equivalent)
    // FP8 fused attention (training.fp8_attention: Transformer Engine's fp8_dpa through cuDNN), fwd+bwd
    // over the FP8 peak, as a causal training sequence runs it: per-tensor scaling (delayed,
    // tensorwise, and NVFP4's attention) and MXFP8's block scaling. 0 = not measured on this GPU.
    double attentionEfficiencyFp8 = 0;
    double attentionEfficiencyMxfp8 = 0;
    // The fused attention forward's per-score softmax work (an exp, a max and a rescale on the
    // SFUs) in head-dim columns of its 16-bit matmuls, which sets how its throughput falls below
    // head dim 128 (KernelDefaults [FA3]). It grows with the tensor cores' FLOPs per clock over the
    // exp units': 0 = Hopper's 56 (KernelDefaults::attentionScoreDimsForward); Blackwell's tensor
    // cores do twice the FLOPs per SM and clock at the same 16 exps, 112.
    double attentionScoreDims = 0;

    bool operator==(const Gpu &) const = default;
};

/// One tier of the fabric, per GPU and per direction.
struct Link
{
    std::string name;
    double bytesPerSecond = 50e9;    // nominal, per direction
    double latencySeconds = 5e-6;    // alpha per algorithm step
    double efficiency = 0.9;         // achievable fraction of the nominal bandwidth

    bool operator==(const Link &) const = default;
};

struct Cluster
{
    std::string name;
    Gpu gpu;
    int gpus = 8;
    int gpusPerNode = 8;
    Link intraNode{"nvlink3", 300e9, 3e-6, 0.9};
    Link interNode{"ib-hdr", 25e9, 5e-6, 0.9};
    int rails = 8;                   // NICs per node; each GPU's share is rails / gpusPerNode
    double oversubscription = 1.0;   // above-leaf oversubscription (1 = non-blocking)
    bool inNetworkReduction = false; // SHARP-style switch aggregation for all-reduce
    Transport transport = Transport::Rdma;
    IntraFabric intraFabric = IntraFabric::Auto;
    Nvls nvls = Nvls::Auto;
    double pricePerGpuHour = 0;      // USD; 0 = the GPU's price (its preset's)

    bool operator==(const Cluster &) const = default;
};

/// plan.bucket = "auto": the bucket the framework picks itself.
inline constexpr double kFrameworkBucket = -1;

struct Plan
{
    int tp = 1;
    int pp = 1;
    int dp = 8;
    int cp = 1;
    CpComm cpComm = CpComm::P2p;
    bool sequenceParallel = false;
    Schedule schedule = Schedule::OneFOneB;
    int virtualStages = 1;           // v, model chunks per stage for the interleaved schedule
    int zeroStage = 0;               // 0..3
    bool overlapDp = true;           // bucketed all-reduce overlaps the last backward
    bool tpOverlap = false;          // TP collectives overlapped with GEMMs (Megatron-Core comm overlap)
    // Megatron's asynchronous TP gradient communication in backward (--async-tensor-model-parallel-
    // allreduce, Megatron-LM Aug. 2021, always on in Megatron-Core and TransformerEngine); false
    // for runs of older code, which communicated in the open.
    bool tpAsyncGrad = true;
    // Gradient bucket; kFrameworkBucket takes the framework's own default (frameworkBucketBytes),
    // 0 = one bucket of all gradients.
    double bucketBytes = -1;
    double compression = 1.0;       // gradient compression ratio (>= 1: bytes divided by it)
    double jitter = 0.0;             // per-GPU step-time jitter, coefficient of variation
    int localSgdInterval = 1;        // K: gradients synchronised every K steps
    Framework framework = Framework::Auto;
    // Megatron --grad-reduce-in-bf16, NeMo optim.grad_sync_dtype, FSDP2 reduce_dtype.
    GradReduce gradReduce = GradReduce::Auto;
    int shardGroup = 0;              // ZeRO/FSDP shard group (HSDP: shard inside, replicate across); 0 = all of dp x cp
    // PyTorch FSDP's API under framework fsdp: 2 = fully_shard (per-parameter sharding, which
    // copies gathered parameters and reduced gradients through flat buffers), 1 =
    // FullyShardedDataParallel (flat parameters: layers use views of the gathered buffer).
    int fsdpVersion = 2;
    // Uneven pipelines (Megatron-LM decoder_first/last_pipeline_num_layers); 0 = even split.
    int firstStageLayers = 0;
    int lastStageLayers = 0;
    bool embeddingInSplit = false;   // the embedding counts as one layer slot of the first stage
    bool lossInSplit = false;        // the LM head and loss count as one layer slot of the last stage
    // Expert parallelism (Megatron-Core --expert-model-parallel-size, experts with expert tensor
    // parallelism 1): the experts of a layer split over ep ranks of the stage's tp x cp x dp ranks,
    // tokens dispatched to them and combined back by all-to-alls.
    int ep = 1;
    // The all-to-alls of one micro-batch run behind another's computation (Megatron-Core
    // --overlap-moe-expert-parallel-comm, Megatron-Bridge overlap_moe_expert_parallel_comm).
    bool epOverlap = false;
    EpDispatcher epDispatcher = EpDispatcher::AllToAll;
    // Rank order of the groups, innermost (adjacent global ranks) first: Megatron's default
    // tp-cp-dp-pp keeps TP inside a node.
    std::array<ParallelDim, 4> rankOrder{ParallelDim::Tp, ParallelDim::Cp, ParallelDim::Dp, ParallelDim::Pp};

    bool operator==(const Plan &) const = default;
};

/// How the cluster is run: power, facility, failures and checkpoints (model/economics.h cites
/// each default).
struct Operations
{
    double averagePowerFraction = 0.8;   // a GPU's average draw while training, of its TDP
    double hostWattsPerGpu = 575;        // CPUs, memory, NICs, fans of the node, per GPU
    double networkPowerFraction = 0.05;  // switches and optics, of the nodes' power
    double pue = 1.2;                    // facility power / IT power
    double gridKgCo2PerKwh = 0.4;        // emissions of the electricity
    double failuresPerGpuHour = 419.0 / (16384.0 * 54 * 24);   // unexpected interruptions per GPU-hour
    double storageBytesPerSecond = 2e12; // aggregate checkpoint write / read bandwidth
    double restartSeconds = 600;         // from a failure to training again (detect, reschedule, load)

    bool operator==(const Operations &) const = default;
};

struct Scenario
{
    Workload workload;
    Training training;
    Cluster cluster;
    Plan plan;
    Operations operations;

    bool operator==(const Scenario &) const = default;
};

const char *nameOf(Precision);
const char *nameOf(Recompute);
const char *nameOf(Schedule);
const char *nameOf(MlpKind);
const char *nameOf(Transport);
const char *nameOf(Attention);
const char *nameOf(Framework);
const char *nameOf(GradReduce);    // "auto", "fp32", "bf16"
const char *nameOf(CpComm);        // "p2p", "allgather", "a2a" (Megatron-LM's spellings)
const char *nameOf(EpDispatcher);  // "alltoall", "deepep", "hybridep"
const char *nameOf(OptimizerStates);   // "fp32", "bf16"
const char *nameOf(CrossEntropy);      // "auto", "megatron", "pytorch", "fused"
/// The kernel in use: the given one, or the framework's.
CrossEntropy resolveCrossEntropy(CrossEntropy given, Framework framework);
/// Recompute in a few words: "none", "selective", "full", or "block N" (N layers per chunk).
std::string recomputeText(const Training &training);
/// Megatron-Core's recompute_modules names (transformer_config.py), in RecomputeModule's order:
/// "core_attn" for kRecomputeCoreAttn; "" for anything but one flag.
const char *recomputeModuleName(unsigned flag);
/// "core_attn, mlp": the modules of a set in that order, "none" for the empty set.
std::string recomputeModulesText(unsigned modules);
const char *nameOf(NormKind);          // "auto", "layernorm", "rmsnorm"
const char *nameOf(Kernels);           // "auto", "fused", "eager"
const char *nameOf(Fp8Recipe);         // "delayed", "tensorwise", "mxfp8", "blockwise", "nvfp4"
NormKind resolveNorm(const Workload &workload);
Kernels resolveKernels(Kernels given, Framework framework, int tensorParallel, int pipelineStages, Precision precision);
const char *nameOf(IntraFabric);   // "auto", "nvswitch", "pcie", "mesh"
const char *nameOf(ParallelDim);   // "tp", "cp", "dp", "pp"
/// The intra-node fabric with Auto resolved from the link name.
IntraFabric resolveIntraFabric(const Cluster &cluster);
/// Whether the nodes' NVSwitches reduce in the switch (NVLS), with Auto resolved.
bool nvlsAvailable(const Cluster &cluster);
/// The NVLink generation of a node's link (3 Ampere, 4 Hopper, 5 Blackwell): from a preset's name
/// (nvlink3*, nvlink4*, nvlink5*), else from its rate (450 GB/s a direction and up Hopper, 900 Blackwell).
int nvlinkGeneration(const Link &intraNode);
/// Distance in global ranks between neighbours of a `dim` group: the product of the degrees of
/// the dimensions inside it in plan.rank_order.
int rankStride(const Plan &plan, ParallelDim dim);
/// "tp-cp-dp-pp" for plan.rank_order.
std::string rankOrderName(const Plan &plan);
/// Parses "tp-cp-dp-pp" (each of tp, cp, dp, pp once, joined by '-'); false if malformed.
bool parseRankOrder(const std::string &text, std::array<ParallelDim, 4> *order);
/// The framework a plan runs on: the given one, or derived from plan.zero (3: PyTorch FSDP;
/// 2: DeepSpeed, or FSDP's SHARD_GRAD_OP with pipeline stages; 0 and 1: Megatron-LM).
Framework resolveFramework(const Plan &plan);
/// Whether a framework has the pipeline schedule: Megatron-LM 1F1B and interleaved 1F1B
/// (core/pipeline_parallel/schedules.py); DeepSpeed's pipeline engine 1F1B (TrainSchedule);
/// torch.distributed.pipelining as torchtitan runs it with FSDP: GPipe, 1F1B, interleaved and
/// zero-bubble. Without pipeline stages every framework runs.
bool frameworkRunsSchedule(Framework framework, Schedule schedule, int pp);
/// Whether the framework moves K and V so under context parallelism (always true for cp 1 or an
/// unnamed framework): Megatron-LM runs all three through Transformer Engine (--cp-comm-type);
/// DeepSpeed runs Ulysses' all-to-alls (deepspeed/sequence/layer.py DistributedAttention);
/// PyTorch FSDP as torchtitan runs it uses PyTorch's ring attention
/// (torch.distributed.tensor.experimental.context_parallel), the K/V ring.
bool frameworkRunsCpComm(Framework framework, CpComm cpComm, int cp);
CpComm frameworkCpComm(Framework framework);   // the exchange a framework runs by default
/// Bytes per gradient element on the wire of the data-parallel reduction (and of Megatron's main
/// gradients), for plan.framework as given (not resolved): a named Megatron-LM forces fp32
/// accumulation and reduction for bf16 (and FP8) training, not for fp16 (megatron/training/arguments.py, "bfloat16
/// requires gradient accumulation and all-reduce to be done in fp32"); a named FSDP (torchtitan)
/// reduces in fp32 (MixedPrecisionPolicy reduce_dtype = training.mixed_precision_reduce, default
/// float32). DeepSpeed (communication_data_type unset), PyTorch DDP, NeMo's H100 recipes
/// (grad_sync_dtype=bf16) and an unnamed framework reduce the gradients in their 16-bit type, as
/// the textbook count 2 bytes x parameters does, except DeepSpeed's pipeline engine in bf16, which
/// all-reduces its optimizer's fp32 gradients (pipe/engine.py _bf16_reduce_grads). plan.grad_reduce
/// overrides all of these.
double gradientReduceElementBytes(Framework planFramework, Precision precision, GradReduce gradReduce = GradReduce::Auto,
                                  int pipelineStages = 1);
/// The DP gradient bucket a plan runs with: plan.bucket when set, else the framework's default.
///  Megatron-Core DDP: max(40M, 1M x dp x cp) parameters (distributed_data_parallel_config.py);
///  DeepSpeed: reduce_bucket_size 5e8 elements (ZeRO config default);
///  PyTorch FSDP: one transformer block per reduce-scatter (FSDP2 wraps each block).
/// dpRanks = dp x cp; layerParamsPerGpu: one block's parameters on this GPU.
double frameworkBucketBytes(const Plan &plan, Framework framework, double elementBytes, double layerParamsPerGpu);

} // namespace ts
