# moe_gating_topk.tile: softmax over the 8 experts of each token, the top 2 (a stable
# descending sort: equal probabilities keep the smaller expert first, as tsort32 and
# torch.topk on the CPU do), their weights divided by their sum. Logits are normal random
# numbers, so ties are rare; the indices are compared exactly, the weights within f32
# rounding (exp and the two sums).
import numpy as np

SIZES = {"T": [1, 15, 16, 17, 37]}
E, K = 8, 2


def inputs(rng, T):
    return {"router_logits": rng.standard_normal((T, E)).astype(np.float32)}


def reference(router_logits, T):
    x = router_logits.astype(np.float64)
    p = np.exp(x - x.max(axis=1, keepdims=True))
    probs = (p / p.sum(axis=1, keepdims=True)).astype(np.float32)
    experts = np.argsort(-probs, axis=1, kind="stable")[:, :K]
    weights = np.take_along_axis(probs, experts, axis=1).astype(np.float64)
    weights = weights / weights.sum(axis=1, keepdims=True)
    return {"routing_weights": weights.astype(np.float32), "selected_experts": experts.astype(np.int32)}


TOLERANCE = {"routing_weights": (1e-5, 1e-6)}
