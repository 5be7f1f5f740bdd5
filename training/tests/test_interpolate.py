import torch

from training.interpolate import Interpolator, backward_warp, crossfade_seven, interpolate_seven, psnr


def test_zero_flow_warp_is_identity_and_integer_flow_shifts():
    img = torch.rand(1, 3, 16, 32)
    assert torch.allclose(backward_warp(img, torch.zeros(1, 2, 16, 32)), img, atol=1e-6)
    flow = torch.zeros(1, 2, 16, 32)
    flow[:, 0] = 3.0     # sample 3 px to the right
    shifted = backward_warp(img, flow)
    assert torch.allclose(shifted[..., :29], img[..., 3:], atol=1e-5)


def test_untrained_interpolator_is_a_crossfade_and_sizes_are_dynamic():
    net = Interpolator().eval()
    for h, w in [(96, 96), (32, 48)]:
        a, b = torch.rand(2, 3, h, w), torch.rand(2, 3, h, w)
        with torch.no_grad():
            mid = net(a, b)
        assert mid.shape == (2, 3, h, w)
        assert torch.allclose(mid, (a + b) / 2, atol=1e-5)


def test_recursive_seven_frames_match_the_crossfade_when_untrained():
    net = Interpolator().eval()
    a, b = torch.rand(1, 3, 32, 32), torch.rand(1, 3, 32, 32)
    seven = interpolate_seven(net, a, b)
    assert seven.shape == (1, 7, 3, 32, 32)
    assert torch.allclose(seven, crossfade_seven(a, b), atol=1e-5)
    assert float(psnr(seven, crossfade_seven(a, b)).min()) > 50
