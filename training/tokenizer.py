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
            nn.Conv2d(3, 16, 4, stride=2, padding=1),
            nn.GELU(),  # 48
            nn.Conv2d(16, 32, 4, stride=2, padding=1),
            nn.GELU(),  # 24
            nn.Conv2d(32, 64, 4, stride=2, padding=1),
            nn.GELU(),  # 12
            nn.Conv2d(64, 128, 4, stride=2, padding=1),
            nn.GELU(),  # 6
            nn.Conv2d(128, FEAT_DIM, 1),
        )

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        grid = self.net(image * 2.0 - 1.0)  # [B,64,6,6]
        return grid.flatten(2).transpose(1, 2)  # [B,36,64]


class TokenizerDecoder(nn.Module):
    """quantised features [B,36,64] -> image [B,3,96,96] in [0,1]."""

    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(FEAT_DIM, 128, 3, padding=1),
            nn.GELU(),
            nn.ConvTranspose2d(128, 96, 4, stride=2, padding=1),
            nn.GELU(),  # 12
            nn.ConvTranspose2d(96, 64, 4, stride=2, padding=1),
            nn.GELU(),  # 24
            nn.ConvTranspose2d(64, 32, 4, stride=2, padding=1),
            nn.GELU(),  # 48
            nn.ConvTranspose2d(32, 16, 4, stride=2, padding=1),
            nn.GELU(),  # 96
            nn.Conv2d(16, 3, 3, padding=1),
        )

    def forward(self, quantised: torch.Tensor, clamp: bool = True) -> torch.Tensor:
        """Linear output around mid-grey (a sigmoid saturated on the many pure-white pixels of UI crops
        and stalled training); clamped to [0,1] except inside the training loss."""
        b = quantised.shape[0]
        grid = quantised.transpose(1, 2).reshape(b, FEAT_DIM, GRID, GRID)
        out = self.net(grid) + 0.5
        return out.clamp(0.0, 1.0) if clamp else out


class VectorQuantiser(nn.Module):
    """Codebook of CODEBOOK vectors in the encoder's feature space, fitted by k-means on encoder
    outputs once the autoencoder has trained (training the codebook jointly collapsed to ~8 codes on
    these mostly flat UI crops; k-means on a trained encoder uses the whole codebook)."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("embed", torch.randn(CODEBOOK, FEAT_DIM) * 0.1)

    def codes(self, features: torch.Tensor) -> torch.Tensor:
        """features [...,64] -> int64 codes [...] of the nearest codebook entry (squared L2)."""
        dist = features.pow(2).sum(-1, keepdim=True) - 2.0 * features @ self.embed.t() + self.embed.pow(2).sum(-1)
        return dist.argmin(-1)

    def lookup(self, codes: torch.Tensor) -> torch.Tensor:
        return F.embedding(codes, self.embed)

    @torch.no_grad()
    def fit(self, vectors: torch.Tensor, iterations: int = 20, seed: int = 0) -> dict:
        """k-means (Lloyd) with distinct random starting points; empty clusters restart on the points
        farthest from their centre. Returns usage statistics."""
        g = torch.Generator().manual_seed(seed)
        uniq = torch.unique(vectors, dim=0)
        start = uniq[torch.randperm(uniq.shape[0], generator=g)[:CODEBOOK]]
        if start.shape[0] < CODEBOOK:  # fewer distinct vectors than codes: jittered copies
            extra = start[torch.randint(0, start.shape[0], (CODEBOOK - start.shape[0],), generator=g)]
            start = torch.cat([start, extra + 1e-3 * torch.randn(extra.shape, generator=g)])
        self.embed.copy_(start)
        for _ in range(iterations):
            assign = self.codes(vectors)
            counts = torch.bincount(assign, minlength=CODEBOOK).float()
            sums = torch.zeros(CODEBOOK, FEAT_DIM).index_add_(0, assign, vectors)
            used = counts > 0
            self.embed[used] = sums[used] / counts[used].unsqueeze(1)
            empty = int((~used).sum())
            if empty:
                err = (vectors - self.embed[assign]).pow(2).sum(-1)
                self.embed[~used] = vectors[err.topk(empty).indices]
        assign = self.codes(vectors)
        err = (vectors - self.embed[assign]).pow(2).sum(-1).mean()
        return {"codes_used": int(torch.unique(assign).numel()), "quantisation_mse": float(err)}


class ImageTokenizer(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.encoder = TokenizerEncoder()
        self.quantiser = VectorQuantiser()
        self.decoder = TokenizerDecoder()

    def forward(self, image: torch.Tensor, quantise: bool = False):
        """Reconstruction through the continuous features (autoencoder training) or through the codes."""
        features = self.encoder(image)
        codes = self.quantiser.codes(features)
        latent = self.quantiser.lookup(codes) if quantise else features
        return self.decoder(latent, clamp=False), codes, features

    @torch.no_grad()
    def encode(self, image: torch.Tensor):
        """image [B,3,96,96] -> (features [B,36,64], codes [B,36] int64)."""
        features = self.encoder(image)
        return features, self.quantiser.codes(features)

    @torch.no_grad()
    def decode_codes(self, codes: torch.Tensor) -> torch.Tensor:
        return self.decoder(self.quantiser.lookup(codes))


def tokenizer_loss(tokenizer: ImageTokenizer, images: torch.Tensor, quantise: bool = False):
    """L1 + MSE reconstruction (+ a small feature-size penalty that keeps features in a stable range)."""
    recon, codes, features = tokenizer(images, quantise)
    l1 = (recon - images).abs().mean()
    mse = F.mse_loss(recon, images)
    loss = l1 + mse + 1e-4 * features.pow(2).mean()
    return loss, {"l1": float(l1), "psnr": float(-10 * torch.log10(mse.detach() + 1e-10))}


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
