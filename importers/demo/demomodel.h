#pragma once

#include <QString>

#include <vector>

namespace runlens::importers::demo {

/// The small residual CNN the demo run pretends to train (CIFAR-10 sized: 3x32x32 images, 10 classes).
/// Its graph, its profiler trace and its tensor dumps are all written from this one description, so the
/// panels agree with one another: a graph scope, a trace operator and a dumped weight name the same layer.
class DemoModel
{
public:
    enum class Type { Conv, BatchNorm, Relu, Add, AvgPool, Flatten, Linear };

    struct Layer
    {
        QString module; ///< torch module path ("layer1.0.conv1"); the block for a residual Add
        Type type = Type::Conv;
        int inChannels = 0;
        int outChannels = 0;
        int kernel = 1; ///< convolutions only
        int stride = 1; ///< convolutions only
        int outSize = 0; ///< output height and width (1 after the pooling)
        std::vector<int> inputs; ///< producer layers; -1 is the image batch
        /// Graph node name: the module path with '/' ("layer1/0/conv1"), or the block and the op for a
        /// functional op ("layer1/0/add"); a module called twice (a block's ReLU) gets "_1" the second time.
        QString node;

        /// Elements of the output for one sample.
        qint64 outputElements() const;
        /// Trainable parameters (convolution and linear weights and biases, batch-norm scale and shift).
        qint64 parameters() const;
    };

    static constexpr int kBatch = 512;
    static constexpr int kImageSize = 32;
    static constexpr int kImageChannels = 3;
    static constexpr int kClasses = 10;

    /// Layers in execution order.
    static const std::vector<Layer>& layers();
    /// ONNX op type of a layer type ("Conv", "BatchNormalization", ...).
    static QString opType(Type type);
    /// Modules whose weights the demo dumps at every dumped step.
    static QStringList dumpedModules();
    /// Total trainable parameters.
    static qint64 parameterCount();
};

} // namespace runlens::importers::demo
