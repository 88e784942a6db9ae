"""The optimiser a table's networks learn with."""

from __future__ import annotations

import numpy as np


class Adam:
    """Adam (Kingma and Ba) over a dict of numpy weights, updated in place."""

    def __init__(self, params: dict[str, np.ndarray], rate: float) -> None:
        self.rate = rate
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    def step(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray],
             rate: float) -> None:
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            m_hat = self.m[k] / (1 - 0.9 ** self.t)
            v_hat = self.v[k] / (1 - 0.999 ** self.t)
            params[k] -= rate * m_hat / (np.sqrt(v_hat) + 1e-8)
