#include "importers/demo/demomodel.h"

#include <QHash>
#include <QStringList>

namespace runlens::importers::demo {

namespace {

using Type = DemoModel::Type;

class Builder
{
public:
    int add(const QString& module, Type type, int in, int out, int size, std::vector<int> inputs, int kernel = 1,
            int stride = 1)
    {
        DemoModel::Layer layer;
        layer.module = module;
        layer.type = type;
        layer.inChannels = in;
        layer.outChannels = out;
        layer.kernel = kernel;
        layer.stride = stride;
        layer.outSize = size;
        layer.inputs = std::move(inputs);
        QString path = module;
        path.replace(QLatin1Char('.'), QLatin1Char('/'));
        // A module's op is named after the module; functional ops (the residual add, flatten) after
        // what they do, inside the module that calls them.
        const bool functional = type == Type::Add || module.isEmpty();
        const QString op = DemoModel::opType(type).toLower();
        const QString base = !functional ? path : path.isEmpty() ? op : path + QLatin1Char('/') + op;
        const int seen = m_seen[base]++;
        layer.node = seen == 0 ? base : base + QLatin1Char('_') + QString::number(seen);
        m_layers.push_back(std::move(layer));
        return int(m_layers.size()) - 1;
    }

    /// torchvision's BasicBlock: conv-bn-relu-conv-bn, plus the shortcut, then relu.
    int block(const QString& name, int input, int in, int out, int size, int stride)
    {
        const QString p = name + QLatin1Char('.');
        int x = add(p + QLatin1String("conv1"), Type::Conv, in, out, size, { input }, 3, stride);
        x = add(p + QLatin1String("bn1"), Type::BatchNorm, out, out, size, { x });
        x = add(p + QLatin1String("relu"), Type::Relu, out, out, size, { x });
        x = add(p + QLatin1String("conv2"), Type::Conv, out, out, size, { x }, 3, 1);
        x = add(p + QLatin1String("bn2"), Type::BatchNorm, out, out, size, { x });
        int shortcut = input;
        if (stride != 1 || in != out) {
            shortcut = add(p + QLatin1String("downsample.0"), Type::Conv, in, out, size, { input }, 1, stride);
            shortcut = add(p + QLatin1String("downsample.1"), Type::BatchNorm, out, out, size, { shortcut });
        }
        x = add(name, Type::Add, out, out, size, { x, shortcut });
        return add(p + QLatin1String("relu"), Type::Relu, out, out, size, { x });
    }

    std::vector<DemoModel::Layer> take() { return std::move(m_layers); }

private:
    std::vector<DemoModel::Layer> m_layers;
    QHash<QString, int> m_seen;
};

std::vector<DemoModel::Layer> buildLayers()
{
    constexpr int kSize = DemoModel::kImageSize;
    Builder b;
    int x = b.add(QStringLiteral("conv1"), Type::Conv, DemoModel::kImageChannels, 16, kSize, { -1 }, 3, 1);
    x = b.add(QStringLiteral("bn1"), Type::BatchNorm, 16, 16, kSize, { x });
    x = b.add(QStringLiteral("relu"), Type::Relu, 16, 16, kSize, { x });
    x = b.block(QStringLiteral("layer1.0"), x, 16, 16, kSize, 1);
    x = b.block(QStringLiteral("layer1.1"), x, 16, 16, kSize, 1);
    x = b.block(QStringLiteral("layer2.0"), x, 16, 32, kSize / 2, 2);
    x = b.block(QStringLiteral("layer2.1"), x, 32, 32, kSize / 2, 1);
    x = b.add(QStringLiteral("avgpool"), Type::AvgPool, 32, 32, 1, { x });
    x = b.add(QString(), Type::Flatten, 32, 32, 1, { x });
    b.add(QStringLiteral("fc"), Type::Linear, 32, DemoModel::kClasses, 1, { x });
    return b.take();
}

} // namespace

qint64 DemoModel::Layer::outputElements() const
{
    return qint64(outChannels) * outSize * outSize;
}

qint64 DemoModel::Layer::parameters() const
{
    switch (type) {
    case Type::Conv:
        return qint64(outChannels) * inChannels * kernel * kernel; // no bias: a batch norm follows
    case Type::BatchNorm:
        return 2 * qint64(outChannels);
    case Type::Linear:
        return qint64(outChannels) * inChannels + outChannels;
    default:
        return 0;
    }
}

const std::vector<DemoModel::Layer>& DemoModel::layers()
{
    static const std::vector<Layer> kLayers = buildLayers();
    return kLayers;
}

QString DemoModel::opType(Type type)
{
    switch (type) {
    case Type::Conv:
        return QStringLiteral("Conv");
    case Type::BatchNorm:
        return QStringLiteral("BatchNormalization");
    case Type::Relu:
        return QStringLiteral("Relu");
    case Type::Add:
        return QStringLiteral("Add");
    case Type::AvgPool:
        return QStringLiteral("GlobalAveragePool");
    case Type::Flatten:
        return QStringLiteral("Flatten");
    case Type::Linear:
        return QStringLiteral("Gemm");
    }
    return QString();
}

QStringList DemoModel::dumpedModules()
{
    return { QStringLiteral("conv1"), QStringLiteral("layer1.0.conv1"), QStringLiteral("fc") };
}

qint64 DemoModel::parameterCount()
{
    qint64 total = 0;
    for (const Layer& layer : layers())
        total += layer.parameters();
    return total;
}

} // namespace runlens::importers::demo
