"""kernel holds the agent's network: RLScheduler's "kernel" actor, for MaskablePPO.

RLScheduler (Zhang et al., SC 2020, ppo-pick-jobs.py's rl_kernel) scores
every slot of the 128 x 8 observation with one small MLP and takes the scores
as the action logits: the same function of a job's features wherever the job
sits, so what the agent learns about one slot holds for all. A plain MLP over
the flattened 1,024 numbers must learn that 128 times. A separate instance of
the same scorer feeds the critic's MLP.

train.py and evaluate.py import it (MaskablePPO.load finds the classes here).
"""

import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

JOB_FEATURES = 8


class JobScores(BaseFeaturesExtractor):
    """One MLP (8 -> 32 -> 16 -> 8 -> 1, RLScheduler's sizes) applied to every slot: a score per slot."""

    def __init__(self, observation_space, hidden=(32, 16, 8)):
        slots = observation_space.shape[0] // JOB_FEATURES
        super().__init__(observation_space, features_dim=slots)
        layers, width = [], JOB_FEATURES
        for h in hidden:
            layers += [nn.Linear(width, h), nn.ReLU()]
            width = h
        layers.append(nn.Linear(width, 1))
        self.score = nn.Sequential(*layers)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        return self.score(obs.reshape(obs.shape[0], -1, JOB_FEATURES)).squeeze(-1)


class KernelPolicy(MaskableActorCriticPolicy):
    """The actor's logits are JobScores' scores, with no layer on top."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("features_extractor_class", JobScores)
        kwargs.setdefault("share_features_extractor", False)
        kwargs.setdefault("net_arch", {"pi": [], "vf": [64, 64]})
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule):
        super()._build(lr_schedule)
        self.action_net = nn.Identity()
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)
