"""The error TF32 tensor cores would cause in a task: the float64 model run with its floating inputs and
the weights of its convolution and linear layers rounded to tf32 (what a TF32 product reads), against the
float64 model as it is. Eager's cuDNN runs some fp32 convolutions in TF32 and some in full fp32, and
eager's own error cannot say which (a chain's softmax hides TF32's error as well as fp32's), so the expert
takes TF32 where this error sits well inside the accuracy rule and 3xTF32 where it does not."""
import torch

TF32_LAYERS = (torch.nn.Conv1d, torch.nn.Conv2d, torch.nn.Conv3d, torch.nn.ConvTranspose1d, torch.nn.ConvTranspose2d,
               torch.nn.ConvTranspose3d, torch.nn.Linear)


def round_tf32(x):
    """x's values as float32 rounded to tf32's 10 mantissa bits (to nearest, ties to even), in x's dtype.
    Finite values only (an infinity's neighbours would round into NaN)."""
    bits = x.float().view(torch.int32)
    bits = (bits + (0xFFF + ((bits >> 13) & 1))) & -0x2000
    return bits.view(torch.float32).to(x.dtype)


def round_layers_tf32(model):
    """The weights of model's convolution and linear layers rounded to tf32, in place."""
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, TF32_LAYERS):
                m.weight.copy_(round_tf32(m.weight))
    return model


def round_inputs_tf32(inputs):
    return [round_tf32(x) if isinstance(x, torch.Tensor) and x.is_floating_point() else x for x in inputs]
