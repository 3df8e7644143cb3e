# apply_adam_w.tile: one AdamW step with host-folded scalars, each operation rounded to f32 in
# the kernel's order (mul, add, sqrt and div are correctly rounded in both): exact.
import numpy as np

SIZES = {"M": [1, 15, 16, 17, 37], "N": [1, 15, 128, 129, 300]}
LR, BETA1, BETA2, WD, EPS, STEP = 1e-3, 0.9, 0.999, 0.01, 1e-8, 3


def scalars():
    bias1, bias2 = 1 - BETA1**STEP, 1 - BETA2**STEP
    return {"eff_beta1": BETA1 / bias1, "eff_ombeta1": (1 - BETA1) / bias1, "eff_beta2": BETA2 / bias2,
            "eff_ombeta2": (1 - BETA2) / bias2, "lr_signed": -LR, "weight_decay": WD, "epsilon": EPS}


def inputs(rng, M, N):
    f = {name: rng.standard_normal((M, N)).astype(np.float32) for name in ("var_in", "grad", "m_in")}
    return {**f, "v_in": rng.uniform(0, 2, (M, N)).astype(np.float32), **scalars()}


def reference(var_in, grad, m_in, v_in, M, N, **s):
    s = {k: np.float32(v) for k, v in s.items()}
    m_hat = m_in * s["eff_beta1"] + grad * s["eff_ombeta1"]
    v_hat = v_in * s["eff_beta2"] + grad * grad * s["eff_ombeta2"]
    update = m_hat / (np.sqrt(v_hat) + s["epsilon"]) + var_in * s["weight_decay"]
    return {"y": var_in + update * s["lr_signed"]}
