"""A small sparse autoencoder (a plain torch module) is trained on a layer's output inside the
trace; after the backward, `.grad` of the autoencoder's weights is read. Not the model's modules.
"""
import torch


class SparseAutoencoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = torch.nn.Linear(32, 64)
        self.decoder = torch.nn.Linear(64, 32)

    def forward(self, x):
        return self.decoder(torch.relu(self.encoder(x)))


sae = SparseAutoencoder()
with model.trace("the mat sat on a dog"):
    hidden = model.transformer.h[0].output.detach()
    loss = (sae(hidden) - hidden).pow(2).mean()
    loss.backward()

assert sae.encoder.weight.grad is not None
