"""ProCap training pipeline: one module per ProCap stage, mirrored by src/core/procap/ in TypeScript."""
