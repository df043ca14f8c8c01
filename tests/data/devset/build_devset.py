"""Assemble devset.jsonl from the hand annotations below.

The annotations (mentions, proposed names, acronym pairs) were written by hand
after reading each abstract; nothing in this file extracts anything from the
text.  The script only copies the abstracts byte for byte from the listings,
attaches the hand annotations and assigns the dev/test split.

Run: .venv/bin/python tests/data/devset/build_devset.py
"""

from __future__ import annotations

import json
from pathlib import Path

SHARED = Path("/work/shared")
SEED000 = SHARED / "seeds" / "000_bc5f1642c1ae3e85.txt"
SEED004 = SHARED / "seeds" / "004_4e94df651592292c.txt"
ICML_TRUTH = SHARED / "corpora" / "icml_2024_all.truth.jsonl"
OUT = Path(__file__).with_name("devset.jsonl")

M, ME, D = "model", "method", "dataset"

# id -> (mentions [(text, type)], proposed [names], acronyms [(long, short)])
ANN: dict[str, tuple[list, list, list]] = {}


def a(id_, mentions=(), proposed=(), acronyms=()):
    assert id_ not in ANN, id_
    ANN[id_] = (list(mentions), list(proposed), list(acronyms))


# --------------------------------------------------------------- seed 000
a("seed000-7",
  [("Large Language Models", M), ("LLMs", M), ("ToMoE", ME),
   ("Mixture-of-Experts", ME), ("MoE", ME), ("Phi-2", M), ("LLaMA-2", M),
   ("LLaMA-3", M), ("Qwen-2.5", M)],
  ["ToMoE"],
  [("Large Language Models", "LLMs"), ("Mixture-of-Experts", "MoE")])

a("seed000-13",
  [("Transformers", M), ("Large Language Models", M), ("LLMs", M),
   ("Layerwise Learning Rate", ME), ("LLR", ME), ("Transformer", M),
   ("LLaMA", M), ("GPT-nano", M), ("AdamW", ME), ("Muon", ME)],
  ["Layerwise Learning Rate", "LLR"],
  [("Large Language Models", "LLMs"), ("Layerwise Learning Rate", "LLR"),
   ("Heavy-Tailed Self-Regularization", "HT-SR"),
   ("empirical spectral density", "ESD")])

a("seed000-17",
  [],
  [],
  [("Reproducing Kernel Hilbert Space", "RKHS")])

a("seed000-23",
  [("DisPOSE", ME), ("Sinkhorn projections", ME),
   ("Hypergraph-Convolutional Decoder", M)],
  ["DisPOSE", "Hypergraph-Convolutional Decoder"],
  [])

a("seed000-27", [], [], [])

a("seed000-33", [], [], [])

a("seed000-39",
  [("Large Language Models", M), ("Synchronized Successive Rejects", ME),
   ("SySRs", ME), ("Successive Reject", ME)],
  ["Synchronized Successive Rejects", "SySRs"],
  [("Synchronized Successive Rejects", "SySRs")])

a("seed000-43",
  [("Large Language Models", M), ("LLMs", M), ("MLP", M),
   ("SparseInfer", ME)],
  ["SparseInfer"],
  [("Large Language Models", "LLMs")])

a("seed000-49",
  [("SignSGD", ME), ("Signum", ME), ("SGD", ME), ("SoftSignum", ME),
   ("LLM", M)],
  ["SoftSignum"],
  [])

a("seed000-55",
  [("neural manifold noise correlation", ME), ("NMNC", ME),
   ("CIFAR-10", D), ("ImageNet", D)],
  ["neural manifold noise correlation", "NMNC"],
  [("neural manifold noise correlation", "NMNC")])

a("seed000-59",
  [("Large language models", M), ("LLMs", M), ("program-of-layers", ME),
   ("PoLar", ME), ("LLM", M)],
  ["program-of-layers", "PoLar"],
  [("Large language models", "LLMs"), ("program-of-layers", "PoLar")])

a("seed000-65",
  [("Collapsed Effective Operators", ME)],
  ["Collapsed Effective Operators"],
  [])

a("seed000-71",
  [("attention with dynamic relational priming", ME),
   ("prime attention", ME)],
  ["attention with dynamic relational priming", "prime attention"],
  [("multivariate time series", "MTS")])

a("seed000-77",
  [("Mixture-of-Experts", ME), ("MoE", ME), ("Vision-Language Models", M),
   ("VLMs", M), ("Post-Training Quantization", ME), ("PTQ", ME),
   ("Visual Expert Quantization", ME), ("VEQ", ME),
   ("Modality-expert-aware Quantization", ME),
   ("Modality-affinity-aware Quantization", ME),
   ("Kimi-VL", M), ("Qwen3-VL", M)],
  ["Visual Expert Quantization", "VEQ", "Modality-expert-aware Quantization",
   "Modality-affinity-aware Quantization"],
  [("Mixture-of-Experts", "MoE"), ("Vision-Language Models", "VLMs"),
   ("Post-Training Quantization", "PTQ"),
   ("Visual Expert Quantization", "VEQ")])

a("seed000-83",
  [("Large Language Models", M), ("LLMs", M),
   ("VOlatility in Long-form Text Benchmark", D), ("VOLTBench", D),
   ("SELB", ME), ("Structural Enforcement via Logits Boosting", ME)],
  ["VOlatility in Long-form Text Benchmark", "VOLTBench", "SELB",
   "Structural Enforcement via Logits Boosting"],
  [("Large Language Models", "LLMs"),
   ("VOlatility in Long-form Text Benchmark", "VOLTBench"),
   ("Structural Enforcement via Logits Boosting", "SELB")])

a("seed000-89",
  [("Federated Learning", ME), ("FL", ME), ("FedPDG", ME)],
  ["FedPDG"],
  [("Federated Learning", "FL")])

a("seed000-95",
  [("LLM", M), ("EduMirror", ME), ("LLMs", M)],
  ["EduMirror"],
  [])

# seed000-111 repeats seed000-99 (same paper, other track): annotated once.
a("seed000-99",
  [],
  [],
  [("Anthropomorphized Misalignment Research", "AMR")])

a("seed000-105",
  [("large language models", M), ("LLMs", M), ("Chain-of-Thought", ME),
   ("CoT", ME)],
  ["TRACE", "Toulmin-based Reasoning Assessment through Constructive Elements"],
  [("large language models", "LLMs"),
   ("Toulmin-based Reasoning Assessment through Constructive Elements",
    "TRACE"),
   ("Chain-of-Thought", "CoT")])

# --------------------------------------------------------------- seed 004
a("seed004-7",
  [("ReLU", ME), ("Generalized Gauss-Newton", ME), ("NTK", ME),
   ("Kronecker factored approximation", ME)],
  [],
  [])

a("seed004-11",
  [("Large Language Models", M), ("LLMs", M), ("LLM", M), ("Pythia", M),
   ("OLMo2", M)],
  ["Shannon Scaling Law"],
  [("Large Language Models", "LLMs"), ("signal-to-noise ratio", "SNR")])

a("seed004-17",
  [("Large language models", M), ("LLMs", M),
   ("Quantization-aware training", ME), ("QAT", ME)],
  [],
  [("Large language models", "LLMs"), ("Quantization-aware training", "QAT")])

a("seed004-23",
  [("Large language model", M), ("LLM", M), ("multi-agent systems", ME),
   ("MAS", ME), ("Slow Drift", ME), ("Benign Wrapper", ME),
   ("Chaos Seeding", ME)],
  ["Slow Drift", "Benign Wrapper", "Chaos Seeding"],
  [("Large language model", "LLM"), ("multi-agent systems", "MAS")])

a("seed004-29",
  [("sparse Johnson–Lindenstrauss transform", ME), ("BlockPerm-SJLT", ME),
   ("FlashSketch", ME), ("GraSS", ME)],
  ["BlockPerm-SJLT", "FlashSketch"],
  [("oblivious subspace embedding", "OSE")])

a("seed004-35",
  [("large language models", M), ("LLMs", M), ("GPT-4", M), ("Claude", M),
   ("HetMedAgent", ME)],
  ["HetMedAgent"],
  [("large language models", "LLMs"), ("artificial intelligence", "AI")])

a("seed004-41",
  [("Prediction-Powered Inference", ME), ("PPI", ME), ("PPI++", ME)],
  [],
  [("Prediction-Powered Inference", "PPI")])

a("seed004-47",
  [("Reinforcement learning", ME), ("RL", ME),
   ("RL from verifiable reward", ME), ("RLVR", ME),
   ("large language models", M), ("LLMs", M), ("AdamW", ME), ("SFT", ME),
   ("Adam", ME), ("SGD", ME)],
  [],
  [("Reinforcement learning", "RL"), ("RL from verifiable reward", "RLVR"),
   ("large language models", "LLMs")])

a("seed004-53",
  [("Failure is Feedback", ME), ("FiF", ME), ("LLM", M),
   ("MultimodalQA", D), ("MMCoQA", D), ("WebQA", D)],
  ["Failure is Feedback", "FiF"],
  [("Failure is Feedback", "FiF")])

a("seed004-59",
  [("Di-BiLPS", ME)],
  ["Di-BiLPS"],
  [("Partial differential equations", "PDEs")])

a("seed004-65",
  [("large language models", M), ("LLMs", M), ("AGoQ", ME),
   ("All-Reduce", ME), ("ZeRO", ME), ("COAT", ME), ("LLaMA", M)],
  ["AGoQ"],
  [("large language models", "LLMs")])

a("seed004-71",
  [("Gaussian process Thompson sampling", ME), ("GP-TS", ME), ("GP", M),
   ("GP upper confidence bound", ME), ("GP-UCB", ME)],
  [],
  [("Gaussian process Thompson sampling", "GP-TS"),
   ("GP upper confidence bound", "GP-UCB")])

a("seed004-75",
  [("Large language models", M), ("LLMs", M), ("DIBJudge", ME)],
  ["DIBJudge"],
  [("Large language models", "LLMs")])

a("seed004-79",
  [("large language models", M), ("LLMs", M),
   ("Open-world Graph Assistant", ME), ("OGA", ME), ("LLM", M),
   ("adaptive label traceability", ME), ("ALT", ME),
   ("graph label annotator", ME), ("GLA", ME)],
  ["Open-world Graph Assistant", "OGA", "adaptive label traceability", "ALT",
   "graph label annotator", "GLA"],
  [("large language models", "LLMs"), ("text-attributed graphs", "TAGs"),
   ("Open-world Graph Assistant", "OGA"),
   ("adaptive label traceability", "ALT"),
   ("graph label annotator", "GLA")])

a("seed004-85",
  [("Meta-iLaD", ME)],
  ["Meta-iLaD"],
  [])

a("seed004-91",
  [("Vision-Language Pre-trained", M), ("VLP", M),
   ("Test-Time Adaptation", ME), ("TTA", ME),
   ("Generative Semantic Refinement and Exclusion-Guided Adaptation", ME),
   ("ReEx", ME), ("Generative Semantic Refinement", ME), ("GSR", ME),
   ("Confidence-Guided Dynamic Fusion", ME), ("LLM", M),
   ("Exclusion-Guided Proxy Contrastive Learning", ME), ("EPCL", ME),
   ("COCO-C", D), ("Flickr-C", D)],
  ["Generative Semantic Refinement and Exclusion-Guided Adaptation", "ReEx",
   "Generative Semantic Refinement", "GSR",
   "Confidence-Guided Dynamic Fusion",
   "Exclusion-Guided Proxy Contrastive Learning", "EPCL"],
  [("Vision-Language Pre-trained", "VLP"), ("Test-Time Adaptation", "TTA"),
   ("Refinement and Exclusion-Guided Adaptation", "ReEx"),
   ("Generative Semantic Refinement", "GSR"),
   ("Exclusion-Guided Proxy Contrastive Learning", "EPCL")])

a("seed004-97",
  [("Continuous Normalizing Flows", M), ("CNFs", M),
   ("Conditional Flow Matching", ME), ("CFM", ME)],
  [],
  [("Continuous Normalizing Flows", "CNFs"),
   ("Conditional Flow Matching", "CFM")])

a("seed004-103",
  [("large language models", M), ("LLMs", M), ("GeoAlign", ME),
   ("PF-PPO", ME), ("PAR", ME), ("PODS", ME), ("Seed-GRPO", ME),
   ("LLM", M), ("RL", ME)],
  ["GeoAlign"],
  [("large language models", "LLMs")])

a("seed004-109",
  [("large language models", M), ("LLMs", M), ("LLM-as-a-judge", ME),
   ("Bradley-Terry-Luce", M), ("LLM", M)],
  [],
  [("large language models", "LLMs")])

a("seed004-115",
  [("differentiable equilibrium blocks", ME), ("DEBs", ME),
   ("deep incentive design", ME), ("DID", ME), ("DEB", ME)],
  ["differentiable equilibrium blocks", "DEBs", "deep incentive design",
   "DID"],
  [("differentiable equilibrium blocks", "DEBs"),
   ("deep incentive design", "DID")])

# ------------------------------------------------------------------ ICML
a("icml-0",
  [("Shortcut Text Gradient", ME), ("DiffusionDB", D), ("ChatGPT", M),
   ("COCO", D)],
  ["Shortcut Text Gradient"],
  [])

a("icml-97",
  [("graph neural networks", M), ("GNNs", M), ("graph distillation", ME),
   ("GD", ME), ("GNN", M),
   ("Graph Distillation with Eigenbasis Matching", ME), ("GDEM", ME)],
  ["Graph Distillation with Eigenbasis Matching", "GDEM"],
  [("graph neural networks", "GNNs"), ("graph distillation", "GD"),
   ("Graph Distillation with Eigenbasis Matching", "GDEM")])

a("icml-194",
  [("imitation learning", ME), ("IL", ME),
   ("inverse reinforcement learning", ME), ("IRL", ME), ("EvIL", ME)],
  ["EvIL"],
  [("imitation learning", "IL"), ("inverse reinforcement learning", "IRL")])

a("icml-291",
  [("Fast Fourier Transform", ME), ("S4", M), ("Long Range Arena", D),
   ("Hyena", M)],
  [],
  [])

a("icml-388",
  [("large language models", M), ("LLMs", M),
   ("Reinforcement learning from Human or AI preferences", ME),
   ("RLHF", ME), ("RLAIF", ME), ("Direct Preference Optimization", ME),
   ("DPO", ME)],
  [],
  [("large language models", "LLMs"),
   ("Direct Preference Optimization", "DPO")])

a("icml-485",
  [("orthogonal attention", ME), ("neural networks", M), ("NNs", M),
   ("NN", M)],
  ["orthogonal attention"],
  [("Partial Differential Equations", "PDEs"), ("neural networks", "NNs")])

a("icml-582",
  [("stochastic gradient descent with momentum", ME), ("SGDM", ME)],
  [],
  [("stochastic gradient descent with momentum", "SGDM")])

a("icml-679", [], [], [])

a("icml-776",
  [],
  [],
  [("randomized controlled trial", "RCT"), ("observational study", "OS")])

a("icml-873",
  [("reinforcement learning from human feedback", ME), ("RLHF", ME),
   ("decoding-time realignment", ME), ("DeRa", ME)],
  ["decoding-time realignment", "DeRa"],
  [("reinforcement learning from human feedback", "RLHF"),
   ("decoding-time realignment", "DeRa")])

a("icml-970",
  [("Continuous-Time Graph Anti-Symmetric Network", M), ("CTAN", M)],
  ["Continuous-Time Graph Anti-Symmetric Network", "CTAN"],
  [("Continuous-Time Dynamic Graphs", "C-TDGs"),
   ("Continuous-Time Graph Anti-Symmetric Network", "CTAN")])

a("icml-1067",
  [("Inverse Transformation Search", ME), ("ITS", ME), ("ImageNet", D)],
  ["Inverse Transformation Search", "ITS"],
  [("Inverse Transformation Search", "ITS")])

a("icml-1164",
  [("deep neural network", M), ("DNN", M),
   ("mixed integer programming", ME), ("MIP", ME)],
  [],
  [("deep neural network", "DNN"), ("mixed integer programming", "MIP")])

a("icml-1261",
  [("SΩI", ME)],
  ["SΩI"],
  [])

a("icml-1358", [], [], [])

a("icml-1455",
  [("large language models", M), ("LLMs", M)],
  ["Junk DNA Hypothesis"],
  [("large language models", "LLMs")])

a("icml-1552",
  [],
  [],
  [("mean square error", "MSE")])

a("icml-1649", [], [], [])

a("icml-1746", [], [], [])

a("icml-1843",
  [("Optimal Transport", ME), ("OT", ME), ("Neural OT", ME),
   ("QontOT", ME)],
  ["QontOT"],
  [("Optimal Transport", "OT"), ("machine learning", "ML")])

a("icml-1940",
  [("Pricing with Perturbation", ME), ("PwP", ME)],
  ["Pricing with Perturbation", "PwP"],
  [("Pricing with Perturbation", "PwP")])

a("icml-2037",
  [("OxyGenerator", M), ("CMIP6", D)],
  ["OxyGenerator"],
  [("dissolved oxygen", "DO")])

a("icml-2134",
  [("Q-learning", ME), ("2RA Q-learning", ME)],
  ["2RA Q-learning"],
  [])

a("icml-2231",
  [("Graph Neural Networks", M), ("GNNs", M), ("Transformer", M),
   ("Point Set Transformer", M), ("PST", M), ("Deepset", M)],
  ["Point Set Transformer", "PST"],
  [("Graph Neural Networks", "GNNs"), ("Point Set Transformer", "PST")])

a("icml-2328",
  [("Transformer", M), ("Meta Evidential Transformer", M), ("MET", M)],
  ["Meta Evidential Transformer", "MET"],
  [("Few-shot open-set recognition", "FSOSR"),
   ("Meta Evidential Transformer", "MET")])

a("icml-2425",
  [("Bayesian optimization", ME), ("BO", ME)],
  [],
  [("Bayesian optimization", "BO")])

a("icml-2522",
  [("Bilevel Positional Encoding", ME), ("BiPE", ME)],
  ["Bilevel Positional Encoding", "BiPE"],
  [("Bilevel Positional Encoding", "BiPE")])

a("icml-2600",
  [("Directly Denoising Diffusion Models", M), ("DDDMs", M),
   ("Pseudo-LPIPS", ME), ("CIFAR-10", D), ("GANs", M),
   ("ImageNet 64x64", D)],
  ["Directly Denoising Diffusion Models", "DDDMs", "Pseudo-LPIPS"],
  [("Directly Denoising Diffusion Models", "DDDMs")])

a("icml-1931",
  [("ChatGPT", M), ("PaLM-2", M)],
  [],
  [])

a("icml-914",
  [("large language models", M), ("LLMs", M), ("LLM", M), ("DS-Agent", ME),
   ("case-based reasoning", ME), ("CBR", ME), ("GPT-4", M)],
  ["DS-Agent"],
  [("large language models", "LLMs"), ("case-based reasoning", "CBR")])

a("icml-2445",
  [("D^α seeding", ME), ("k-means++", ME), ("k-means", ME)],
  [],
  [])

# ------------------------------------------------------------- assembly
SEED000_LINES = [7, 13, 17, 23, 27, 33, 39, 43, 49, 55, 59, 65, 71, 77, 83,
                 89, 95, 99, 105]  # 111 duplicates 99
SEED004_LINES = [7, 11, 17, 23, 29, 35, 41, 47, 53, 59, 65, 71, 75, 79, 85,
                 91, 97, 103, 109, 115]
ICML = [0, 97, 194, 291, 388, 485, 582, 679, 776, 873, 970, 1067, 1164, 1261,
        1358, 1455, 1552, 1649, 1746, 1843, 1940, 2037, 2134, 2231, 2328,
        2425, 2522, 2600, 1931, 914, 2445]


def lines(path: Path) -> list[str]:
    return path.read_bytes().decode("utf-8").split("\n")


def main() -> None:
    rows: list[tuple[str, str]] = []
    s0, s4 = lines(SEED000), lines(SEED004)
    assert s0[98] == s0[110]  # the repeated paper
    rows += [(f"seed000-{n}", s0[n - 1]) for n in SEED000_LINES]
    rows += [(f"seed004-{n}", s4[n - 1]) for n in SEED004_LINES]
    truth = {}
    for line in ICML_TRUTH.read_text(encoding="utf-8").splitlines():
        o = json.loads(line)
        truth[o["index"]] = o["abstract"]
    rows += [(f"icml-{i}", truth[i]) for i in ICML]
    assert len(rows) == 70 and set(ANN) == {r[0] for r in rows}, (
        set(ANN) ^ {r[0] for r in rows})
    with OUT.open("w", encoding="utf-8") as f:
        for k, (id_, abstract) in enumerate(rows, start=1):
            mentions, proposed, acronyms = ANN[id_]
            obj = {
                "id": id_,
                "split": "test" if k % 3 == 0 else "dev",
                "abstract": abstract,
                "mentions": [{"text": t, "type": ty} for t, ty in mentions],
                "proposed": proposed,
                "acronyms": [{"long": lo, "short": sh} for lo, sh in acronyms],
            }
            f.write(json.dumps(obj, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} objects to {OUT}")


if __name__ == "__main__":
    main()
