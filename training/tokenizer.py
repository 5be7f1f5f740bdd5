"""Image tokenizer: a small convolutional VQ autoencoder.

Its encoder is the frozen patch backbone of ProCap (96x96 RGB -> 6x6 grid of 64-d features, one per
16 px patch); the nearest codebook entry of each feature is that patch's code, the masked-modelling
target of stage 1. Its decoder turns codes (predicted at the procedure-query positions) back into
pictures: the "imagined frames".
"""
from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F

from .config import CODEBOOK, FEAT_DIM, GRID, N_I


class TokenizerEncoder(nn.Module):
    """image [B,3,96,96] in [0,1] -> features [B,36,64] (pre-quantisation, row-major patches)."""

    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, 16, 4, stride=2, padding=1), nn.GELU(),     # 48
            nn.Conv2d(16, 32, 4, stride=2, padding=1), nn.GELU(),    # 24
            nn.Conv2d(32, 64, 4, stride=2, padding=1), nn.GELU(),    # 12
            nn.Conv2d(64, 128, 4, stride=2, padding=1), nn.GELU(),   # 6
            nn.Conv2d(128, FEAT_DIM, 1),
        )

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        grid = self.net(image * 2.0 - 1.0)                           # [B,64,6,6]
        return grid.flatten(2).transpose(1, 2)                       # [B,36,64]


class TokenizerDecoder(nn.Module):
    """quantised features [B,36,64] -> image [B,3,96,96] in [0,1]."""

    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(FEAT_DIM, 128, 3, padding=1), nn.GELU(),
            nn.ConvTranspose2d(128, 96, 4, stride=2, padding=1), nn.GELU(),   # 12
            nn.ConvTranspose2d(96, 64, 4, stride=2, padding=1), nn.GELU(),    # 24
            nn.ConvTranspose2d(64, 32, 4, stride=2, padding=1), nn.GELU(),    # 48
            nn.ConvTranspose2d(32, 16, 4, stride=2, padding=1), nn.GELU(),    # 96
            nn.Conv2d(16, 3, 3, padding=1),
        )

    def forward(self, quantised: torch.Tensor) -> torch.Tensor:
        b = quantised.shape[0]
        grid = quantised.transpose(1, 2).reshape(b, FEAT_DIM, GRID, GRID)
        return torch.sigmoid(self.net(grid))


class VectorQuantiser(nn.Module):
    """Codebook of CODEBOOK vectors, updated by exponential moving averages (no codebook gradient),
    with dead codes restarted from random encoder outputs so that the whole codebook stays in use."""

    def __init__(self, decay: float = 0.99, eps: float = 1e-5) -> None:
        super().__init__()
        self.decay, self.eps = decay, eps
        embed = torch.randn(CODEBOOK, FEAT_DIM) * 0.1
        self.register_buffer("embed", embed)
        self.register_buffer("cluster_size", torch.ones(CODEBOOK))
        self.register_buffer("embed_sum", embed.clone())
        self.register_buffer("initialised", torch.tensor(0))

    def codes(self, features: torch.Tensor) -> torch.Tensor:
        """features [...,64] -> int64 codes [...] of the nearest codebook entry (squared L2)."""
        dist = (features.pow(2).sum(-1, keepdim=True)
                - 2.0 * features @ self.embed.t()
                + self.embed.pow(2).sum(-1))
        return dist.argmin(-1)

    def lookup(self, codes: torch.Tensor) -> torch.Tensor:
        return F.embedding(codes, self.embed)

    @torch.no_grad()
    def _ema_update(self, flat: torch.Tensor, codes: torch.Tensor) -> None:
        if int(self.initialised) == 0:
            # start the codebook on real encoder outputs instead of noise
            pick = torch.randint(0, flat.shape[0], (CODEBOOK,))
            self.embed.copy_(flat[pick])
            self.embed_sum.copy_(flat[pick])
            self.cluster_size.fill_(1.0)
            self.initialised.fill_(1)
            return
        onehot = F.one_hot(codes, CODEBOOK).type(flat.dtype)
        self.cluster_size.mul_(self.decay).add_(onehot.sum(0), alpha=1 - self.decay)
        self.embed_sum.mul_(self.decay).add_(onehot.t() @ flat, alpha=1 - self.decay)
        n = self.cluster_size.sum()
        size = (self.cluster_size + self.eps) / (n + CODEBOOK * self.eps) * n
        self.embed.copy_(self.embed_sum / size.unsqueeze(1))
        dead = self.cluster_size < 0.03
        if dead.any():
            count = int(dead.sum())
            pick = torch.randint(0, flat.shape[0], (count,))
            self.embed[dead] = flat[pick]
            self.embed_sum[dead] = flat[pick]
            self.cluster_size[dead] = 1.0

    def forward(self, features: torch.Tensor):
        """Returns (straight-through quantised features, codes, commitment loss)."""
        codes = self.codes(features)
        if self.training:
            self._ema_update(features.detach().reshape(-1, FEAT_DIM), codes.reshape(-1))
            codes = self.codes(features)
        quantised = self.lookup(codes)
        commitment = F.mse_loss(features, quantised.detach())
        quantised = features + (quantised - features).detach()
        return quantised, codes, commitment


class ImageTokenizer(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.encoder = TokenizerEncoder()
        self.quantiser = VectorQuantiser()
        self.decoder = TokenizerDecoder()

    def forward(self, image: torch.Tensor):
        features = self.encoder(image)
        quantised, codes, commitment = self.quantiser(features)
        return self.decoder(quantised), codes, commitment, features

    @torch.no_grad()
    def encode(self, image: torch.Tensor):
        """image [B,3,96,96] -> (features [B,36,64], codes [B,36] int64)."""
        features = self.encoder(image)
        return features, self.quantiser.codes(features)

    @torch.no_grad()
    def decode_codes(self, codes: torch.Tensor) -> torch.Tensor:
        return self.decoder(self.quantiser.lookup(codes))


def tokenizer_loss(tokenizer: ImageTokenizer, images: torch.Tensor):
    """L1 + MSE reconstruction + 0.25 commitment; returns (loss, stats dict)."""
    recon, codes, commitment, _ = tokenizer(images)
    l1 = (recon - images).abs().mean()
    mse = F.mse_loss(recon, images)
    loss = l1 + mse + 0.25 * commitment
    used = int(torch.unique(codes).numel())
    return loss, {"l1": float(l1), "psnr": float(-10 * torch.log10(mse.detach() + 1e-10)), "codes_used": used}


class ExportTokenizerEncoder(nn.Module):
    """ONNX graph: image -> (features, codes)."""

    def __init__(self, tokenizer: ImageTokenizer) -> None:
        super().__init__()
        self.encoder, self.quantiser = tokenizer.encoder, tokenizer.quantiser

    def forward(self, image: torch.Tensor):
        features = self.encoder(image)
        return features, self.quantiser.codes(features)


class ExportTokenizerDecoder(nn.Module):
    """ONNX graph: codes -> image."""

    def __init__(self, tokenizer: ImageTokenizer) -> None:
        super().__init__()
        self.decoder, self.quantiser = tokenizer.decoder, tokenizer.quantiser

    def forward(self, codes: torch.Tensor):
        return self.decoder(self.quantiser.lookup(codes))


assert N_I == GRID * GRID
