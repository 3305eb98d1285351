#pragma once

#include "core/importcontrol.h"
#include "core/runmanifest.h"
#include "tensor/tensorcatalog.h"

#include <QString>

namespace runlens::tensor {

/// Builds the TensorCatalog of an opened folder from the tensor files of its manifest, reading only
/// headers: `.npy` (torch-style `step_N/{module}.{kind}.npy` dumps and MindSpore offline dumps
/// `{net}/{graph}/{iteration}/{op_type}.{op_name}...{input|output}.{slot}...npy`), the members of `.npz`
/// archives and the entries of `.safetensors` files. The same tensor at several steps becomes one series;
/// the step comes from the folders (`step_N`, `iteration_N`, MindSpore iteration folders) or from the file
/// name of a checkpoint (`ckpt-300.safetensors`). Runs on any thread; a bad file becomes a diagnostic.
class TensorCatalogBuilder
{
public:
    static TensorCatalog build(const RunManifest& manifest, const ImportControl& control = {});
    /// The step a checkpoint's file name carries (`model_step_500.npz`, `checkpoint-12.safetensors`), or -1.
    static int stepOfFileName(const QString& fileName);
};

} // namespace runlens::tensor
