import torch

from training.interpolate import Interpolator, backward_warp, crossfade_seven, interpolate_seven, psnr


def test_zero_flow_warp_is_identity_and_integer_flow_shifts():
    img = torch.rand(1, 3, 16, 32)
    assert torch.allclose(backward_warp(img, torch.zeros(1, 2, 16, 32)), img, atol=1e-6)
    flow = torch.zeros(1, 2, 16, 32)
    flow[:, 0] = 3.0  # sample 3 px to the right
    shifted = backward_warp(img, flow)
    assert torch.allclose(shifted[..., :29], img[..., 3:], atol=1e-5)


def test_untrained_interpolator_is_a_crossfade_and_sizes_are_dynamic():
    # the motion gate starts inside its dead zone: exactly a cross-fade, whatever the flows say
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


def _textured(b: int, h: int, w: int, seed: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    return torch.nn.functional.avg_pool2d(torch.rand(b, 3, h + 4, w + 4, generator=g), 5, stride=1)


def test_bilateral_cost_volume_is_lowest_at_the_true_half_motion():
    from training.interpolate import bilateral_cost_volume, displacements

    a = _textured(1, 40, 48, 0)
    vy, vx = 2, -3  # half of the motion from a to b, in pixels
    b = torch.roll(a, shifts=(2 * vy, 2 * vx), dims=(2, 3))  # b(p) = a(p - 2v)
    cost = bilateral_cost_volume(a, b, radius=4)
    assert cost.shape == (1, 81, 40, 48)
    inner = cost[0, :, 10:30, 10:38]
    best = inner.argmin(0)
    true_index = displacements(4).index((vy, vx))
    assert float((best == true_index).float().mean()) > 0.95


def test_teacher_flow_finds_a_shift_and_the_warp_reproduces_the_middle():
    from training.interpolate import teacher_flow

    end = _textured(2, 64, 64, 1)
    middle = torch.roll(end, shifts=(-7, 13), dims=(2, 3))  # middle(p) = end(p + (7, -13))
    flow, gain = teacher_flow(middle, end)
    inner = flow[:, :, 16:48, 16:48]
    # coarse to fine on fine random texture: nearly every pixel exact
    assert float((inner[:, 0] == -13).float().mean()) > 0.85
    assert float((inner[:, 1] == 7).float().mean()) > 0.85
    assert float(gain[:, :, 16:48, 16:48].mean()) > 0.02
    warped = backward_warp(end, flow)[..., 16:48, 16:48]
    assert float(psnr(warped, middle[..., 16:48, 16:48]).min()) > 30


def test_teacher_keeps_still_where_the_cross_fade_explains_the_middle():
    from training.interpolate import motion_targets

    left = _textured(2, 32, 32, 2)
    right = (left * 0.5 + 0.3).clamp(0, 1)  # a colour change, nothing moves
    targets = motion_targets(left, right, (left + right) / 2)
    assert float(targets["flow"].abs().max()) == 0.0
    assert float(targets["motion"].max()) == 0.0  # the gate's target: fall back to the cross-fade
    assert torch.allclose(targets["mask"], torch.tensor(0.5))


def test_teacher_marks_a_moving_box_as_motion():
    from training.interpolate import motion_targets

    frames = []
    for x in (10, 20, 30):
        img = torch.full((1, 3, 48, 64), 0.9)
        img[:, :, 16:32, x : x + 12] = torch.tensor([0.1, 0.3, 0.8]).view(1, 3, 1, 1)
        frames.append(img)
    targets = motion_targets(frames[0], frames[2], frames[1])
    assert float(targets["motion"][0, 0, 20:28, 22:30].mean()) == 1.0  # inside the middle box
    # its leading edge came from 10 px to the left in the first frame and 10 px to the right in the last
    assert abs(float(targets["flow"][0, 0, 24, 31]) + 10) <= 1 and abs(float(targets["flow"][0, 2, 24, 31]) - 10) <= 1
    assert float(targets["flow"][0, :, 4:12].abs().max()) == 0.0  # the background above stays still


def test_interpolator_loss_trains_flows_towards_a_moving_box():
    """A few steps on one moving-box triple must lower the loss: the flow loss gives the long-range signal."""
    from training.interpolate import interpolator_loss

    torch.manual_seed(0)
    frames = []
    for x in (10, 20, 30):  # box moves 20 px: the middle has it at 20
        img = torch.full((1, 3, 48, 64), 0.9)
        img[:, :, 16:32, x : x + 12] = torch.tensor([0.1, 0.3, 0.8]).view(1, 3, 1, 1)
        frames.append(img)
    net = Interpolator()
    opt = torch.optim.Adam(net.parameters(), lr=2e-3)
    first = None
    for _ in range(40):
        loss, _ = interpolator_loss(net, frames[0], frames[2], frames[1])
        first = float(loss) if first is None else first
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert float(loss) < 0.7 * first


def test_crop_gate_fit_closes_on_a_colour_change_and_leaves_the_network_alone():
    """The crop gate's fit moves only the gate: on a crop whose kind moves nothing (a box changing colour)
    its probability falls, so the output stays the exact cross-fade there; the motion network is untouched."""
    from training.interpolate import crop_gate_loss

    torch.manual_seed(0)
    colours = [torch.tensor(c).view(1, 3, 1, 1) for c in ([0.1, 0.3, 0.8], [0.45, 0.3, 0.5], [0.8, 0.3, 0.2])]
    frames = []
    for colour in colours:  # the middle is the blend of the two ends
        img = torch.full((1, 3, 48, 64), 0.9)
        img[:, :, 16:32, 20:32] = colour
        frames.append(img)
    net = Interpolator()
    with torch.no_grad():  # start with the gate open, as a leaking gate would be
        net.crop_gate.out.bias.fill_(3.0)
    trunk_before = {k: v.clone() for k, v in net.state_dict().items() if not k.startswith("crop_gate")}
    opt = torch.optim.Adam(net.crop_gate.parameters(), lr=5e-3)
    p_before = float(net.predict(frames[0], frames[2])[6])
    for _ in range(30):
        loss, stats = crop_gate_loss(net, frames[0], frames[2], frames[1], still=torch.tensor([True]))
        opt.zero_grad()
        loss.backward()
        opt.step()
    p_after = float(net.predict(frames[0], frames[2])[6])
    assert p_before > 0.9 and p_after < 0.5
    assert stats["share_moving"] == 0.0
    assert all(torch.equal(v, net.state_dict()[k]) for k, v in trunk_before.items())
    with torch.no_grad():
        assert torch.allclose(net(frames[0], frames[2]), (frames[0] + frames[2]) / 2, atol=1e-6)
