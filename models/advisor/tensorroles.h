#pragma once

#include "models/tensor/tensorcatalog.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <vector>

namespace runlens::models::advisor {

/// What a tensor is to training, as far as its name, dump kind and op type tell (MindInsight's node
/// categories, PyTorch module paths, TensorBoard tags): the accuracy rules ask different questions of
/// weights, gradients and activations.
enum class TensorRole { Weight, Bias, Gradient, Activation, Other };
enum class ActivationKind { None, Relu, Sigmoid, Tanh };

struct TensorClass
{
    TensorRole role = TensorRole::Other;
    ActivationKind activation = ActivationKind::None;
    QString layer; ///< module or node the tensor belongs to ("fc1", "layer1.0.conv1"); may be empty
    bool biasGradient = false; ///< a gradient of a bias (left out of the per-layer depth pattern)
    bool halfPrecision = false; ///< stored as, or named as, an fp16 copy
};

/// Classifies a tensor series of a TensorCatalog.
TensorClass classifySeries(const tensor::TensorSeries& series);
/// Classifies a histogram or summary tag ("fc1.weight", "grad/fc1.weight", "Gradients/conv1/weight").
TensorClass classifyTag(const QString& tag);

/// The parameter a gradient's name is of: "grad/fc1.weight", "fc1.weight.grad", "fc1.weight_grad" and its
/// half-precision copy "fc1.weight_grad_fp16" all give "fc1.weight".
QString gradientTarget(const QString& gradientName);

/// The full-precision tensor a half-precision copy is named after: "fc1.weight_grad_fp16" and "fc1.weight.half"
/// give "fc1.weight_grad" and "fc1.weight"; other names are returned as they are.
QString withoutPrecisionMark(QString name);

/// Natural order of names: digits compare as numbers, so "layer2" comes before "layer10".
bool naturalLess(const QString& a, const QString& b);

/// Positions of layers in execution order: a loaded graph's node order when one names them, else natural
/// name order. Keys are matched with '.' and '/' alike and without a leading '/'.
class LayerOrder
{
public:
    /// `graphNodeKeys` lists the graph's node names, scopes and full names in file (execution) order.
    void addGraphKeys(const QStringList& graphNodeKeys);
    /// Registers a layer seen in the data, for the name-order fallback.
    void addLayer(const QString& layer);
    /// Assigns positions; call after every add.
    void finish();
    /// Position of a layer (lower runs earlier), and whether it came from a graph.
    double position(const QString& layer, bool* fromGraph = nullptr) const;

    static QString normalized(const QString& key);

private:
    QHash<QString, int> m_graph;
    QStringList m_layers;
    QHash<QString, int> m_byName;
};

} // namespace runlens::models::advisor
