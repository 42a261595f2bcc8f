"""Word and sentence banks for the synthetic corpus generator (``synth.py``).

Every sentence here was written for this generator; none is taken from a real
abstract.  Sentences carry ``str.format`` slots that the generator fills once
per paper, so one abstract talks consistently about one method and one task:

``{N}``   the name of the proposed method (invented per paper)
``{M}``   the main existing method the paper builds on; ``{M2}`` another one
``{T}``   the task; ``{T2}`` a second task
``{D}``   a benchmark or dataset; ``{D2}`` a second one
``{MET}`` an evaluation metric
``{Y}``   a desirable property (robustness, sample efficiency, ...)
``{F}``   an application field
``{P}``, ``{P2}`` percentages such as ``4.7%``
``{X}``   a speed-up factor such as ``2.3``
``{K}``, ``{K2}`` small integers; ``{B}`` a model size such as ``7B``
``{URL}`` a code link (only in :data:`CODE`)
"""

from __future__ import annotations

FIRST_NAMES: tuple[str, ...] = (
    "Aaron", "Abhishek", "Adam", "Aditi", "Adrian", "Ahmed", "Aisha", "Akira", "Alberto", "Aleksandr",
    "Alessandro", "Alexander", "Alexandra", "Ali", "Alice", "Amir", "Amélie", "Ana", "Anders", "Andrea",
    "Andreas", "Andrés", "Anh", "Anna", "Antoine", "Anton", "Arjun", "Arnaud", "Astrid", "Ayaan",
    "Bao", "Beatrice", "Benjamin", "Bernhard", "Bingbing", "Bo", "Bruno", "Camille", "Carlos",
    "Carola-Bibiane",
    "Caroline", "Chao", "Chen", "Chiara", "Chloé", "Christian", "Christoph", "Claire", "Cristina", "Daniel",
    "Daniela", "David", "Deepak", "Diego", "Dmitry", "Dong", "Elena", "Elif", "Emily", "Emma",
    "Eric", "Eugene", "Fabian", "Fan", "Fatima", "Federico", "Felix", "Fernando", "Florian", "Francesco",
    "François", "Gabriel", "Gaël", "Giulia", "Giulio", "Guanhua", "Guillaume", "Hai", "Hamid", "Hannah",
    "Hao", "Haruto", "Heng", "Hiroshi", "Hong", "Hugo", "Ilya", "Ines", "Ioana", "Isabel",
    "Jakob", "James", "Jan", "Javier", "Jia", "Jialin", "Jian", "Jiayi", "Jie", "Jing",
    "Joana", "Johannes", "John", "Jonas", "Jonathan", "Jorge", "José", "Julia", "Julien", "Jun",
    "Jürgen", "Kai", "Karim", "Katarzyna", "Kenji", "Kevin", "Krishna", "Kun", "Lars", "Laura",
    "Lei", "Leonie", "Li", "Liang", "Lin", "Ling", "Lisa", "Lorenzo", "Lucas", "Lucía",
    "Luis", "Maciej", "Mahmoud", "Maksim", "Marco", "Maria", "Marin", "Mark", "Marta", "Martin",
    "Mathieu", "Matteo", "Mehdi", "Mei", "Miao", "Michael", "Michał", "Mihaela", "Min", "Ming",
    "Mona", "Moshe", "Nadia", "Naveen", "Nicolas", "Niklas", "Nina", "Noah", "Noémie", "Olga",
    "Oliver", "Olivia", "Omar", "Paolo", "Pablo", "Patrick", "Pedro", "Peng", "Peter", "Philipp",
    "Pierre", "Pietro", "Ping", "Pratik", "Priya", "Qi", "Qiang", "Qing", "Rafael", "Rahul",
    "Raphaël", "Ravi", "Renée", "Ricardo", "Rohan", "Ruofan", "Sara", "Sarah", "Satoshi", "Sebastian",
    "Sergey", "Shan", "Sheng", "Shuai", "Simon", "Siyu", "Sofia", "Søren", "Stefan", "Stephan",
    "Sujian", "Sven", "Takeshi", "Tao", "Thomas", "Tian", "Tim", "Tobias", "Tomás", "Ulrich",
    "Valentina", "Victor", "Vikram", "Vincent", "Wei", "Wen", "Wotao", "Xavier", "Xi", "Xiang",
    "Xiaoqi", "Xin", "Xinyu", "Yan", "Yang", "Yaoyu", "Yasmin", "Yi", "Yifan", "Ying",
    "Yong", "Yu", "Yuki", "Yun", "Yusuf", "Zeynep", "Zhang", "Zhen", "Zhiheng", "Zhiyi",
    "Zirui", "Zoë", "Zorah", "Łukasz", "Çağlar", "Gülşen", "Björn", "Åsa", "Mátyás", "Dörte",
)

LAST_NAMES: tuple[str, ...] = (
    "Abdullah", "Adams", "Agarwal", "Ahmad", "Ahmed", "Alvarez", "Andersen", "Anwar", "Ao", "Bagatella",
    "Balla", "Baskin", "Becker", "Bengtsson", "Bevilacqua", "Bianchi", "Brandt", "Brown", "Bruno", "Cai",
    "Cao", "Carvalho", "Chakraborty", "Chang", "Chen", "Cheng", "Chi", "Choi", "Costa", "Cruz",
    "Dai", "Das", "Deng", "Di", "Ding", "Dubois", "Du", "Eliasof", "Evans", "Fang",
    "Feldman", "Fernández", "Ferrari", "Fischer", "Foresti", "Franzese", "Fu", "Gao", "García", "Ghosh",
    "Gómez", "González", "Gupta", "Günnemann", "Han", "Hansen", "He", "Herbold", "Hernández", "Hofmann",
    "Hu", "Huang", "Ibrahim", "Ito", "Iyer", "Jawanpuria", "Jensen", "Jiang", "Jin", "Johnson",
    "Kang", "Kato", "Khan", "Kim", "Kobayashi", "Koch", "Kollovieh", "Kovačević", "Kowalski", "Krause",
    "Kumar", "Lähner", "Lanzillotta", "Larsen", "Lawrence", "Lee", "Lefèvre", "Li", "Liang", "Lienen",
    "Lin", "Liu", "Lopes", "López", "Lu", "Luo", "Ma", "Majid", "Mantri", "Martin",
    "Martínez", "Meier", "Meyer", "Michiardi", "Min", "Mishra", "Moreau", "Müller", "Murphy", "Nakamura",
    "Nalisnick", "Nguyen", "Nielsen", "Novak", "Nowak", "Núñez", "Olsen", "Osher", "Pan", "Park",
    "Patel", "Peng", "Pereira", "Petersen", "Petrov", "Qin", "Rao", "Reddy", "Ribeiro", "Richter",
    "Romano", "Rossi", "Rupf", "Russo", "Saito", "Sánchez", "Santos", "Sato", "Schirmer", "Schmidt",
    "Schneider", "Schönlieb", "Schulz", "Shah", "Sharma", "Shi", "Silva", "Singh", "Sittoni", "Smith",
    "Song", "Sun", "Suzuki", "Takahashi", "Tan", "Tanaka", "Tang", "Taylor", "Thomas", "Tudisco",
    "Vlastelica", "Vogel", "Wagner", "Wan", "Wang", "Watanabe", "Weber", "Wei", "Williams", "Wilson",
    "Wong", "Wu", "Xiao", "Xie", "Xu", "Yadav", "Yamamoto", "Yan", "Yang", "Yao",
    "Yarotsky", "Ye", "Yilmaz", "Yin", "Yu", "Yuan", "Zhang", "Zhao", "Zheng", "Zhong",
    "Zhou", "Zhu", "Zimmermann", "Zong", "Öztürk", "Ødegaard", "Šimić", "Dvořák", "Jørgensen", "Béranger",
    "Gaßner", "Köhler", "Håkansson", "Çelik", "Ekström", "Leclère", "Løvås", "Wójcik", "Żukowski", "Ruíz",
)

# Method terms as they appear in ML abstracts (mixed acronyms and phrases).
METHODS: tuple[str, ...] = (
    "LoRA", "QLoRA", "Mamba", "diffusion models", "flow matching", "weight decay", "AdamW", "Adam", "SGD",
    "PPO", "DPO", "RLHF", "GRPO", "SAC", "DQN", "TD3", "A3C", "MuZero", "AlphaZero", "REINFORCE",
    "transformers", "vision transformers", "ViT", "Swin Transformer", "BERT", "RoBERTa", "GPT-2", "T5",
    "LLaMA", "CLIP", "DINOv2", "MAE", "SimCLR", "MoCo", "BYOL", "contrastive learning",
    "knowledge distillation", "dropout", "batch normalization", "layer normalization", "residual connections",
    "ResNet", "U-Net", "VAE", "variational autoencoders", "GANs", "StyleGAN", "normalizing flows",
    "neural ODEs", "score matching", "denoising diffusion", "DDPM", "DDIM", "latent diffusion",
    "classifier-free guidance", "consistency models", "graph neural networks", "GCN", "GAT", "GraphSAGE",
    "message passing", "Gaussian processes", "kernel methods", "random features", "neural tangent kernel",
    "mixture of experts", "sparse attention", "linear attention", "FlashAttention", "state-space models",
    "S4", "RWKV", "rotary position embeddings", "in-context learning", "chain-of-thought prompting",
    "retrieval-augmented generation", "instruction tuning", "prefix tuning", "prompt tuning", "adapters",
    "parameter-efficient fine-tuning", "quantization", "pruning", "low-rank factorization", "model merging",
    "federated averaging", "FedAvg", "differential privacy", "DP-SGD", "adversarial training", "PGD",
    "randomized smoothing", "conformal prediction", "Bayesian neural networks", "deep ensembles",
    "Monte Carlo dropout", "temperature scaling", "label smoothing", "mixup", "CutMix", "data augmentation",
    "self-supervised learning", "masked language modeling", "next-token prediction", "beam search",
    "speculative decoding", "KV caching", "gradient checkpointing", "mixed-precision training",
    "ZeRO", "pipeline parallelism", "tensor parallelism", "gradient clipping", "learning-rate warmup",
    "cosine annealing", "Sharpness-Aware Minimization", "SAM", "Shampoo", "K-FAC", "natural gradient",
    "mirror descent", "Langevin dynamics", "Hamiltonian Monte Carlo", "variational inference",
    "expectation maximization", "optimal transport", "Sinkhorn iterations", "Wasserstein distances",
    "neural radiance fields", "NeRF", "3D Gaussian splatting", "YOLO", "Mask R-CNN", "DETR",
    "Segment Anything", "Word2Vec", "sparse autoencoders", "circuit discovery", "activation patching",
    "model-based reinforcement learning", "offline reinforcement learning", "behavior cloning",
    "imitation learning", "curriculum learning", "meta-learning", "MAML", "continual learning",
    "experience replay", "elastic weight consolidation", "active learning", "pseudo-labeling",
    "test-time adaptation", "domain adaptation", "invariant risk minimization", "causal discovery",
    "physics-informed neural networks", "Fourier neural operators", "DeepONet", "equivariant networks",
    "hypernetworks", "implicit neural representations", "tree search", "Monte Carlo tree search",
    "XGBoost", "random forests", "boosting", "spectral clustering", "t-SNE", "UMAP", "PCA",
)

TASKS: tuple[str, ...] = (
    "image classification", "object detection", "semantic segmentation", "instance segmentation",
    "image generation", "text-to-image generation", "video generation", "video understanding",
    "machine translation", "question answering", "summarization", "code generation", "mathematical reasoning",
    "language modeling", "long-context modeling", "speech recognition", "text-to-speech synthesis",
    "time-series forecasting", "anomaly detection", "recommendation", "link prediction",
    "node classification",
    "molecular property prediction", "protein structure prediction", "drug discovery", "weather forecasting",
    "robotic manipulation", "autonomous driving", "visual navigation", "continuous control",
    "multi-agent coordination", "tabular classification", "causal effect estimation", "density estimation",
    "out-of-distribution detection", "uncertainty quantification", "few-shot learning", "zero-shot transfer",
    "visual question answering", "image captioning", "information retrieval", "named entity recognition",
    "sentiment analysis", "dialogue generation", "depth estimation", "pose estimation", "3D reconstruction",
    "novel view synthesis", "point cloud registration", "medical image segmentation",
    "hyperparameter optimization",
    "neural architecture search", "combinatorial optimization", "PDE solving", "symbolic regression",
    "theorem proving", "program synthesis", "fact verification", "hallucination detection",
    "preference alignment",
)

DATASETS: tuple[str, ...] = (
    "ImageNet", "ImageNet-1k", "CIFAR-10", "CIFAR-100", "MNIST", "COCO", "ADE20K", "Cityscapes", "Pascal VOC",
    "LAION-5B", "Kinetics-400", "Something-Something v2", "GLUE", "SuperGLUE", "SQuAD", "MMLU", "GSM8K",
    "MATH", "HumanEval", "MBPP", "BIG-Bench", "WikiText-103", "The Pile", "C4", "LibriSpeech", "OGB",
    "Cora", "PubMed", "QM9", "ZINC", "MuJoCo", "Atari", "D4RL", "Meta-World", "nuScenes", "KITTI",
    "ShapeNet", "ScanNet", "MIMIC-IV", "UCI", "ETTh1", "Electricity", "WMT14", "XSum", "CNN/DailyMail",
    "TruthfulQA", "ARC", "HellaSwag", "Long Range Arena", "WILDS", "DomainNet", "Office-Home", "CelebA",
    "FFHQ", "LSUN", "Objaverse", "RoboMimic", "BEIR", "MS MARCO", "SWE-bench",
)

METRICS: tuple[str, ...] = (
    "accuracy", "top-1 accuracy", "F1 score", "BLEU", "ROUGE-L", "perplexity", "FID", "Inception Score",
    "mean average precision", "mIoU", "AUROC", "expected calibration error", "success rate", "return",
    "negative log-likelihood", "mean squared error", "pass@1", "exact match", "recall@10", "NDCG@10",
    "word error rate", "CLIP score", "regret", "wall-clock time", "memory footprint", "throughput",
)

PROPERTIES: tuple[str, ...] = (
    "robustness", "sample efficiency", "calibration", "scalability", "interpretability", "fairness",
    "generalization", "stability", "privacy", "efficiency", "faithfulness", "data efficiency",
    "expressivity", "convergence speed", "memory efficiency", "compositionality", "controllability",
)

FIELDS: tuple[str, ...] = (
    "healthcare", "medical imaging", "climate science", "materials science", "robotics", "finance",
    "education", "genomics", "astrophysics", "particle physics", "chemistry", "agriculture", "law",
    "cybersecurity", "neuroscience", "remote sensing", "energy systems", "manufacturing", "social science",
)

# Pieces for invented method names ("FlashMix", "SeqLoRA", "PD-Former", ...).
NAME_HEADS: tuple[str, ...] = (
    "Flash", "Seq", "Meta", "Hyper", "Deep", "Sparse", "Fast", "Flow", "Graph", "Auto", "Uni", "Omni",
    "Neuro", "Quant", "Lite", "Dyna", "Poly", "Robust", "Self", "Cross", "Multi", "Token", "Latent",
    "Causal", "Echo", "Vision", "Mem", "Prompt", "Diff", "Spec", "Ortho", "Tensor", "Free", "Fed", "Reg",
)
NAME_TAILS: tuple[str, ...] = (
    "Former", "Net", "LoRA", "Mix", "Flow", "Diff", "GNN", "Mamba", "Align", "Prompt", "Bench", "Opt",
    "Gen", "RL", "Attn", "Fusion", "Distill", "Merge", "Tune", "Search", "Coder", "SSM", "Guard", "Cast",
)

GITHUB_USERS: tuple[str, ...] = (
    "anon-ml", "deepmind-lab", "ml-group", "vision-lab", "nlp-uni", "rl-research", "ai4science", "openlab",
    "tum-daml", "eth-ml", "mila-iqia", "stanford-ai", "berkeley-rl", "cmu-ml", "tsinghua-ml", "pku-ai",
    "kaist-ai", "oxford-ml", "cam-ml", "epfl-lions", "uw-nlp", "mit-han-lab", "nvlabs-research", "xyz123",
    "jdoe", "awesome-researcher", "lab-of-learning", "sjtu-ai", "zju-cv", "ust-ml",
)

SUBJECT_SHORTHAND = "↗"

# -- Sentences by rhetorical role ------------------------------------------

CONTEXT: tuple[str, ...] = (
    "{M} has become a standard tool for {T}.",
    "{M} has recently emerged as a powerful paradigm for {T}.",
    "Recent advances in {M} have substantially improved the state of the art in {T}.",
    "{T} is a fundamental problem in machine learning with applications in {F}.",
    "Large-scale models trained with {M} now dominate most benchmarks for {T}.",
    "Despite its empirical success, the behavior of {M} remains poorly understood.",
    "Many practical systems for {T} rely on {M} to achieve competitive performance.",
    "The success of {M} in {T} has motivated a growing body of work on its {Y}.",
    "Modern pipelines for {T} combine {M} with {M2} to scale to billions of parameters.",
    "{T} in {F} poses unique challenges due to limited labels and heterogeneous data.",
    "Learning reliable representations for {T} remains an open challenge.",
    "Foundation models have transformed {T}, yet adapting them to {F} remains costly.",
    "{M} and {M2} are two of the most widely used approaches for {T}.",
    "Over the past decade, {M} has been applied to problems ranging from {T} to {T2}.",
    "A central question in deep learning is why {M} generalizes well in the overparameterized regime.",
    "Scaling laws suggest that performance on {T} improves predictably with compute and data.",
    "Real-world deployments of {T} systems require {Y} under distribution shift.",
    "{Y} is a key requirement for machine learning models deployed in {F}.",
    "Training large models with {M} is expensive in both memory and compute.",
    "The quadratic cost of self-attention limits the applicability of transformers to {T}.",
    "There is increasing interest in understanding the {Y} of {M}.",
    "{M} provides a principled framework for reasoning about uncertainty in {T}.",
    "Benchmarks such as {D} have driven rapid progress in {T}.",
    "In many applications in {F}, data arrive sequentially and the underlying distribution drifts over time.",
    "Practitioners often tune {M} by trial and error, with little theoretical guidance.",
    "Existing approaches to {T} typically assume access to large amounts of labeled data.",
    "Combining {M} with {M2} has proven effective for {T} in practice.",
    "{T} has attracted considerable attention from both the machine learning and the {F} communities.",
    "Large language models exhibit remarkable abilities in {T}, "
    "yet they still struggle with multi-step reasoning.",
    "The ability to learn from a handful of examples is a hallmark of human intelligence.",
    "Graph-structured data are ubiquitous in {F}, from molecules to social networks.",
    "Reinforcement learning agents trained with {M} often require millions of environment interactions.",
    "Generative modeling with {M} has achieved impressive sample quality on {D}.",
    "Optimization algorithms such as {M} and {M2} are the workhorses of modern deep learning.",
    "Interpretability methods aim to explain the internal computations of neural networks.",
    "Privacy regulations increasingly restrict how training data for {T} can be collected and shared.",
    "Long sequences arise naturally in {T}, genomics and audio processing.",
    "Uncertainty estimates are essential for safety-critical decisions in {F}.",
    "The performance of {M} depends critically on the choice of hyperparameters.",
    "Distribution shift between training and deployment is pervasive in {F}.",
    "Deep networks trained with {M} are known to be vulnerable to small adversarial perturbations.",
    "Self-supervised pretraining with {M} has reduced the need for manual annotation in {T}.",
    "Recent work has shown that {M} can be interpreted as a form of {M2}.",
    "Data scarcity remains the main bottleneck for {T} in {F}.",
    "Evaluating {T} systems is notoriously difficult because standard metrics such as {MET} correlate poorly "
    "with human judgment.",
    "Multimodal models that jointly process images and text have opened new possibilities for {T}.",
    "The theoretical foundations of {M} have received much less attention than its applications.",
    "Tabular data remain the most common data modality in {F}, "
    "yet deep models often lag behind tree ensembles.",
    "Energy consumption and latency constraints make on-device {T} particularly challenging.",
    "Inference-time compute has emerged as a new axis for scaling the performance of language models.",
)

PROBLEM: tuple[str, ...] = (
    "However, existing methods suffer from poor {Y} "
    "when the test distribution differs from the training one.",
    "However, {M} scales poorly with the number of parameters, which limits its use in {T}.",
    "Yet, it remains unclear when and why {M} outperforms simpler baselines such as {M2}.",
    "Unfortunately, current approaches require expensive hyperparameter tuning and careful initialization.",
    "A key limitation of prior work is its reliance on strong assumptions about the data-generating process.",
    "These methods often fail to capture long-range dependencies, leading to degraded {MET}.",
    "Moreover, they lack formal guarantees, which hinders their adoption in {F}.",
    "In particular, the interaction between {M} and {M2} is not well understood.",
    "Most existing methods treat {T} and {T2} separately, ignoring their shared structure.",
    "This gap raises the question of whether {M} is fundamentally limited or merely poorly tuned.",
    "As a result, models trained with {M} are often miscalibrated and overconfident.",
    "The computational cost of {M} grows quadratically with the input length, which is prohibitive for {T}.",
    "Existing benchmarks do not reflect the conditions under which {T} systems are deployed in {F}.",
    "Prior analyses of {M} are restricted to linear models or infinitely wide networks.",
    "Furthermore, the memory footprint of {M} makes it impractical on commodity hardware.",
    "Such approaches are brittle and degrade sharply under label noise.",
    "Standard training objectives do not explicitly encourage {Y}, resulting in shortcut learning.",
    "Catastrophic forgetting remains a major obstacle when models are updated on new tasks.",
    "Current evaluation protocols conflate improvements due to the method with improvements due to tuning.",
    "A major difficulty is that rewards in {T} are sparse and delayed.",
    "In practice, practitioners face a trade-off between {Y} and computational cost.",
    "Existing theoretical results for {M} do not explain the phenomena observed in practice.",
    "The lack of large annotated datasets makes supervised approaches impractical for {T} in {F}.",
    "These limitations become more severe as models scale to {B} parameters.",
    "Little is known about how {M} behaves when the number of tasks grows.",
    "Most methods are evaluated on {D} only, leaving their transferability to other domains unclear.",
    "Naively combining {M} with {M2} leads to unstable training and mode collapse.",
    "Yet the mechanisms underlying these gains remain largely opaque.",
    "Worse, performance varies substantially across random seeds, undermining reproducibility.",
    "This raises concerns about the reliability of {M} in high-stakes settings.",
)

PROPOSAL: tuple[str, ...] = (
    "In this paper, we propose {N}, a simple and scalable approach to {T} based on {M}.",
    "We introduce {N}, a framework that unifies {M} and {M2} for {T}.",
    "To address these issues, we present {N}, which augments {M} with a lightweight {M2} module.",
    "In this work, we propose {N}, a novel method that improves the {Y} of {M}.",
    "We present {N}, a {M}-based method for {T} that requires no additional supervision.",
    "This paper introduces {N}, an efficient alternative to {M} with linear complexity in sequence length.",
    "We propose {N}, a principled approach that casts {T} as an instance of {M2}.",
    "Here we develop {N}, a theoretically grounded algorithm for {T} that combines {M} and {M2}.",
    "We take a different perspective and study {T} through the lens of {M}.",
    "To bridge this gap, we introduce {N}, a benchmark and toolkit for evaluating {M} on {T}.",
    "In this work, we revisit {M} and show that a few simple modifications make it competitive for {T}.",
    "We propose {N}, a plug-and-play module that can be added to any {M} pipeline.",
    "We address this problem by introducing {N}, which learns to adapt {M} at test time.",
    "We introduce {N}, a family of models that replace {M} with {M2} in the core computation.",
    "This paper studies the {Y} of {M} from both a theoretical and an empirical standpoint.",
    "We propose {N}, a training recipe that makes {M} robust to the choice of hyperparameters.",
    "We present {N}, the first method to provably achieve {Y} for {T} under realistic assumptions.",
    "In this paper, we investigate whether {M} can replace {M2} for {T}.",
    "We introduce {N}, a data-centric approach that curates training examples for {T}.",
    "Motivated by these observations, we design {N}, which decouples representation learning from {T}.",
    "We formulate {T} as a bilevel optimization problem and solve it with {N}.",
    "We propose {N}, a parameter-efficient adaptation method built on {M}.",
    "To this end, we develop {N}, a diffusion-based generative model tailored to {T}.",
    "We present a systematic empirical study of {M} across {K} tasks and {K2} model families.",
    "Our approach, {N}, leverages {M} to distill knowledge from a {B} teacher into a compact student.",
)

METHOD: tuple[str, ...] = (
    "{N} maintains a compact memory of past examples and updates it with {M}.",
    "The key idea is to replace the expensive {M} step with a cheap approximation based on {M2}.",
    "Our method decomposes the objective into {K} subproblems that can be solved in parallel.",
    "Specifically, {N} learns a low-rank correction to the pretrained weights "
    "while keeping the backbone frozen.",
    "At its core, {N} uses {M2} to align the representations of different modalities.",
    "We parameterize the policy with a transformer and optimize it with {M}.",
    "{N} adaptively allocates computation to difficult inputs, reducing the average cost of inference.",
    "The model is trained end-to-end with a combination of a reconstruction loss and a contrastive loss.",
    "We introduce a regularizer that penalizes the sharpness of the loss landscape around each iterate.",
    "Our approach builds a hierarchy of latent variables and performs inference with {M2}.",
    "Crucially, {N} does not require access to the training data of the original model.",
    "To stabilize training, we combine {M} with {M2} and a carefully designed learning-rate schedule.",
    "We derive a closed-form update rule that avoids backpropagation through the inner loop.",
    "The resulting algorithm has a per-iteration cost of $O(n \\log n)$ instead of $O(n^2)$.",
    "{N} represents each input as a set of tokens and routes them to {K} experts "
    "with a learned gating network.",
    "We further introduce a calibration step based on {M2} that corrects systematic biases of the model.",
    "Our method exploits the symmetry of the problem through an equivariant architecture.",
    "The decay rate λ is learned from the input rather than fixed a priori.",
    "We use a learned prior to guide sampling, which reduces the number of function evaluations to {K}.",
    "Instead of fine-tuning all parameters, {N} updates only {P} of the weights.",
    "We propose a curriculum that gradually increases the difficulty of training examples.",
    "A lightweight verifier scores candidate solutions, and the best one is selected with {M2}.",
    "{N} couples a world model with a planner based on {M2}.",
    "We model the interactions between agents as a graph and process it with {M2}.",
    "To handle missing modalities, {N} learns a shared latent space with modality-specific encoders.",
    "Each layer combines local convolutions with global attention over a small set of latent tokens.",
    "We replace the softmax in attention with a kernel feature map, yielding linear time and memory.",
    "The training objective is a variational lower bound that can be optimized with stochastic gradients.",
    "Our construction relies on a coupling between the forward and reverse processes of {M}.",
    "We introduce a reward model trained on pairwise preferences and optimize the policy with {M}.",
    "{N} uses retrieval from an external memory of {K} million documents to ground its predictions.",
    "We show how to compute the required gradients efficiently using implicit differentiation.",
    "The algorithm alternates between estimating the latent structure and refining the model parameters.",
    "We quantize the weights to {K} bits while keeping activations in higher precision.",
    "To improve {Y}, we inject structured noise during training and average predictions at test time.",
    "{N} is agnostic to the underlying architecture and can be combined with {M2}.",
    "Our design allows the model to reuse cached computation across decoding steps.",
    "We augment the input with synthetic examples generated by a pretrained {M2} model.",
    "The method operates directly on raw signals and does not rely on handcrafted features.",
    "We incorporate physical constraints into the loss function via {M2}.",
    "A masked prediction objective encourages the encoder to capture high-level semantics.",
    "The proposed scheduler adjusts the step size based on the local curvature, estimated with {M2}.",
    "We model temporal dependencies with a selective state-space layer whose parameters depend on the input.",
    "Our approach treats the pretrained model as a black box and only requires query access.",
    "{N} aggregates client updates with a robust estimator that tolerates a fraction of malicious clients.",
    "We prune attention heads whose removal has the smallest effect on the validation {MET}.",
    "To encourage exploration, we add an intrinsic reward based on prediction error.",
    "A contrastive objective pulls together augmented views of the same sample and pushes apart the others.",
    "The generator is conditioned on a sequence of discrete tokens obtained from a learned codebook.",
    "We decompose the weight matrix as $W = W_0 + BA$ "
    "with $B \\in \\mathbb{{R}}^{{d \\times r}}$ and small rank $r$.",
    "We sample trajectories with {M2} and filter them using an automatic correctness check.",
    "Our framework supports both discrete and continuous actions without modification.",
    "The model predicts a distribution over outputs rather than a point estimate, enabling {Y}.",
    "We represent scenes with {M2} and render them with a differentiable rasterizer.",
    "To reduce variance, we use control variates derived from a learned baseline.",
)

THEORY: tuple[str, ...] = (
    "We prove that {N} converges to a stationary point at a rate of $O(1/\\sqrt{{T}})$.",
    "Theoretically, we show that {M} implicitly minimizes a weighted norm of the parameters.",
    "We establish a generalization bound that depends on the effective rank rather than the number of "
    "parameters.",
    "Our analysis reveals a phase transition in the behavior of {M} as the width grows.",
    "Under mild assumptions, we prove that the proposed estimator is consistent and asymptotically normal.",
    "We characterize the sample complexity of {T} and show that {N} is minimax optimal up to logarithmic "
    "factors.",
    "We provide a regret bound of $\\tilde{{O}}(\\sqrt{{dT}})$ that matches the known lower bound.",
    "Our theory explains why {M} benefits from large learning rates early in training.",
    "We show that, in the limit of infinite width, the dynamics of {M} reduce to kernel regression.",
    "We prove that any non-zero amount of regularization guarantees identifiability of the latent factors.",
    "We derive a lower bound showing that no algorithm can improve on {N} by more than a constant factor.",
    "We show that {M} can be viewed as a discretization of a gradient flow on the space of probability "
    "measures.",
    "Our analysis identifies the signal-to-noise ratio as the key quantity governing {Y}.",
    "We prove that the learned representations are invariant to nuisance transformations of the input.",
    "We give conditions under which {M} provably recovers the ground-truth causal graph.",
    "We establish that the expressive power of {M2} is bounded by the Weisfeiler-Leman test.",
    "Our bounds hold with high probability and do not require the loss to be convex.",
    "We show that the training dynamics exhibit {K} distinct phases, each with a characteristic timescale.",
    "We prove a separation result: {N} can represent functions that require exponentially many units in {M}.",
    "Our results imply that privacy can be obtained at almost no cost in {MET} when the dataset is large.",
)

EXPERIMENT: tuple[str, ...] = (
    "We evaluate {N} on {D} and {D2}.",
    "Extensive experiments on {K} benchmarks, including {D} and {D2}, demonstrate the effectiveness of our "
    "approach.",
    "We conduct experiments on {T} and {T2} using models ranging from 125M to {B} parameters.",
    "Experiments on {D} show that {N} is competitive with strong baselines such as {M2}.",
    "We validate our theoretical findings with experiments on synthetic data and on {D}.",
    "Empirically, we compare {N} against {K} state-of-the-art methods on {D}.",
    "We benchmark {N} on a suite of {K} tasks from {D} covering {T} and {T2}.",
    "Our experiments span vision, language and reinforcement learning tasks.",
    "We further apply our method to a real-world dataset from {F}.",
    "Ablation studies confirm that each component of {N} contributes to the final performance.",
    "We also study the sensitivity of {N} to its hyperparameters and find it to be robust.",
    "Experiments with a {B} language model on {D} confirm our analysis.",
    "We evaluate under both in-distribution and out-of-distribution settings on {D}.",
    "To assess {Y}, we introduce a new evaluation protocol based on {D}.",
    "We run a large-scale study with more than {K}00 training runs to ensure statistical significance.",
    "Simulation studies and an application to {F} data illustrate the practical benefits of our method.",
    "We test {N} on {K} continuous control tasks from {D}.",
    "Human evaluation with {K}0 annotators complements the automatic metrics.",
    "We compare against fine-tuning, {M} and {M2} under the same compute budget.",
    "We release a new dataset of {K}0k examples for {T} collected in collaboration with experts in {F}.",
)

RESULT: tuple[str, ...] = (
    "{N} improves {MET} by {P} over the strongest baseline while using {X}x less memory.",
    "Our method achieves state-of-the-art {MET} on {D}, outperforming {M2} by {P}.",
    "Results show that {N} reduces training time by {P} without sacrificing {MET}.",
    "{N} attains a {X}× speedup at inference with negligible loss in {MET}.",
    "On {D}, {N} improves {MET} from {P2} to {P}.",
    "We find that {M} consistently outperforms {M2} when data are scarce, but the gap vanishes at scale.",
    "Surprisingly, a carefully tuned {M} baseline matches or exceeds most recent methods.",
    "Our results reveal that current models rely heavily on spurious correlations present in {D}.",
    "{N} reduces the number of parameters by {X}x while retaining {P} of the original performance.",
    "The proposed approach yields better-calibrated predictions, reducing {MET} by {P}.",
    "{N} closes {P} of the gap between the base model and a fully fine-tuned model.",
    "Across all settings, {N} is more sample efficient than {M} and {M2}.",
    "In particular, {N} achieves {P} {MET} on {D} with only {K} labeled examples per class.",
    "Our model generates samples of higher quality than {M2}, as measured by {MET}.",
    "The learned policies transfer zero-shot to unseen environments and to a real robot.",
    "We observe that the benefits of {N} grow with model size.",
    "Compared with {M}, our approach lowers {MET} by {P} on average across {K} datasets.",
    "Notably, {N} remains robust when up to {P} of the labels are corrupted.",
    "The results indicate a clear trade-off between {Y} and {MET} that prior work has overlooked.",
    "Our analysis shows that most of the improvement stems from better optimization rather than "
    "increased capacity.",
    "{N} matches the performance of a {B} model while running on a single GPU.",
    "Empirically, the predicted phase transition occurs at the critical value derived by our theory.",
    "Despite its simplicity, {N} outperforms more complex methods by a wide margin.",
    "We find that {MET} alone is a poor proxy for {Y}, motivating the use of complementary metrics.",
    "{N} achieves a new state of the art on {D2} with {P} fewer floating-point operations.",
    "These gains are consistent across architectures, including convolutional networks and transformers.",
    "On long sequences, {N} is up to {X} times faster than FlashAttention-based baselines.",
    "The proposed estimator has lower variance than {M2}, leading to faster convergence.",
    "Our best model reaches {P} pass@1, surpassing open models of comparable size.",
    "Interestingly, the learned representations exhibit interpretable structure "
    "aligned with semantic concepts.",
)

CONCLUSION: tuple[str, ...] = (
    "Our findings suggest that {M} should be revisited as a strong baseline for {T}.",
    "These results open new directions for scalable and reliable {T}.",
    "We hope that our work will facilitate the adoption of {M} in {F}.",
    "Overall, our study highlights the importance of {Y} in the design of learning systems.",
    "We discuss limitations and outline promising avenues for future work.",
    "Our work provides a unified perspective on {M} and {M2}.",
    "Taken together, these results challenge the prevailing view that {M} is necessary for {T}.",
    "We believe {N} is a step towards general-purpose models for {F}.",
    "This work bridges the gap between theory and practice for {M}.",
    "Our framework is general and can be extended to other modalities and tasks.",
    "These insights provide practical guidelines for practitioners deploying {M}.",
    "We conclude with a discussion of the broader impact of our approach in {F}.",
    "Our results suggest that {Y} and efficiency need not be at odds.",
    "The simplicity of {N} makes it easy to integrate into existing pipelines.",
    "Finally, we identify open problems that we believe are important for the community.",
)

CODE: tuple[str, ...] = (
    "Code is available at {URL}",
    "Our code is publicly available at {URL}",
    "The code and pretrained models are released at {URL}",
    "Code and data: {URL}",
    "Our implementation is available at {URL}",
    "We release our code at {URL}",
    "The source code can be found at {URL}",
    "Project page and code: {URL}",
    "All experiments can be reproduced with our open-source implementation {URL}",
    "An implementation in PyTorch is provided {URL}",
)

TITLES: tuple[str, ...] = (
    "{N}: {Y}-Aware {M} for {T}",
    "{N}: Scalable {T} with {M}",
    "{N}: Efficient {M} via {M2}",
    "Towards {Y} in {T} with {M}",
    "On the {Y} of {M}",
    "When Does {M} Help {T}?",
    "Revisiting {M} for {T}",
    "{M} Meets {M2}: A Unified View of {T}",
    "Understanding {M} through the Lens of {M2}",
    "{N}: Learning to {V} with {M}",
    "A Theory of {M} in the Overparameterized Regime",
    "Provable {Y} of {M} for {T}",
    "{N}: A Benchmark for {T} in {F}",
    "Beyond {M}: {Y} for {T}",
    "Is {M} All You Need for {T}?",
    "{N}: Test-Time Adaptation of {M} for {T}",
    "Rethinking {Y} in {M}",
    "{N}: Parameter-Efficient {T} with {M}",
    "Scaling {M} to {B} Parameters for {T}",
    "The Hidden Cost of {M} in {T}",
    "{N}: Fast and Accurate {T} from {D}",
    "Sharp Bounds for {M} with Heavy-Tailed Noise",
    "{T} in {F}: A {M} Approach",
    "Learning {T} from Few Examples with {M}",
    "{N}: Bridging {M} and {M2}",
    "What Does {M} Learn? An Empirical Study on {D}",
    "{N}: Robust {T} under Distribution Shift",
    "Implicit Bias of {M} in {T}",
    "Fixed-Point {M}: Stable and Adaptive {T}",
    "{N}: Memory-Optimized {M} for Long Sequences",
)

TITLE_VERBS: tuple[str, ...] = (
    "Plan", "Reason", "Forget", "Generalize", "Compress", "Explore", "Align", "Route", "Retrieve", "Adapt",
    "Predict", "Search", "Merge", "Verify", "Calibrate", "Remember",
)
