#include "models/advisor/tensorroles.h"

#include <QRegularExpression>

#include <algorithm>

namespace runlens::models::advisor {

namespace {

// Optimizer state sits next to the weights in checkpoints but says nothing about their health.
bool isOptimizerState(const QString& lower)
{
    static const QStringList words { QStringLiteral("optimizer"), QStringLiteral("exp_avg"), QStringLiteral("moment"),
                                     QStringLiteral("momentum"),  QStringLiteral("accum"),   QStringLiteral("adam_") };
    return std::any_of(words.begin(), words.end(), [&](const QString& w) { return lower.contains(w); });
}

ActivationKind activationOf(const QString& text)
{
    const QString lower = text.toLower();
    // Variants that do not saturate or die the same way are left alone.
    if (lower.contains(QLatin1String("leaky")) || lower.contains(QLatin1String("prelu"))
        || lower.contains(QLatin1String("logsigmoid")) || lower.contains(QLatin1String("hsigmoid"))
        || lower.contains(QLatin1String("hardsigmoid")) || lower.contains(QLatin1String("hardtanh")))
        return ActivationKind::None;
    if (lower.contains(QLatin1String("relu")))
        return ActivationKind::Relu;
    if (lower.contains(QLatin1String("sigmoid")))
        return ActivationKind::Sigmoid;
    if (lower.contains(QLatin1String("tanh")))
        return ActivationKind::Tanh;
    return ActivationKind::None;
}

bool isGradientName(const QString& lower)
{
    static const QRegularExpression pattern(
        QStringLiteral("(^|/)(grad|grads|gradient|gradients)/|[._/]grad$|_grad([._]|$)|(^|/)gradients$"));
    return pattern.match(lower).hasMatch();
}

// "grad/fc1.weight" -> "fc1.weight"; "fc1.weight.grad" -> "fc1.weight".
QString withoutGradientMarks(QString name)
{
    static const QRegularExpression prefix(QStringLiteral("^(grad|grads|gradient|gradients)/"),
                                           QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression suffix(QStringLiteral("[._/]grad$"), QRegularExpression::CaseInsensitiveOption);
    name.remove(prefix);
    name.remove(suffix);
    return name;
}

// The last component of a path written with '.' or '/' and what comes before it.
std::pair<QString, QString> splitLast(const QString& name)
{
    const int cut = int(std::max(name.lastIndexOf(QLatin1Char('.')), name.lastIndexOf(QLatin1Char('/'))));
    if (cut < 0)
        return { QString(), name };
    return { name.left(cut), name.mid(cut + 1) };
}

// A parameter name that adds to "weight" or "bias" says which: "in_proj_weight" and "in_proj_bias" of attention,
// "weight_ih_l0" and "bias_hh_l0" of recurrent layers.
bool hasRoleAffix(const QString& word, const QString& role)
{
    return word.endsWith(QLatin1Char('_') + role) || word.startsWith(role + QLatin1Char('_'));
}

bool isWeightWord(const QString& word)
{
    return word == QLatin1String("weight") || word == QLatin1String("kernel") || word == QLatin1String("w")
        || hasRoleAffix(word, QStringLiteral("weight"));
}

bool isBiasWord(const QString& word)
{
    return word == QLatin1String("bias") || word == QLatin1String("b") || hasRoleAffix(word, QStringLiteral("bias"));
}

} // namespace

TensorClass classifySeries(const tensor::TensorSeries& series)
{
    TensorClass out;
    out.layer = series.nodeKey;
    const QString kind = series.kind.toLower();
    const QString name = series.name.toLower();
    const QString opType = series.opType.toLower();
    // A copy named as such ("fc1.weight_fp16" beside "fc1.weight") is not the tensor the optimizer updates; a
    // tensor merely stored as float16 (a model after model.half()) is still what its name says.
    const bool namedCopy = kind.contains(QLatin1String("fp16")) || kind.contains(QLatin1String("half"))
        || withoutPrecisionMark(series.name) != series.name;
    // bfloat16 has float32's range: only float16 copies are at risk of leaving it.
    out.halfPrecision = namedCopy && !name.endsWith(QLatin1String("bf16")) && !name.endsWith(QLatin1String("bfloat16"));
    if (!series.versions.isEmpty() && series.versions.first().dtype == tensor::DType::Float16)
        out.halfPrecision = true;
    if (isOptimizerState(name))
        return out;

    const bool gradient = kind.contains(QLatin1String("grad")) || isGradientName(name)
        || opType.contains(QLatin1String("grad")) || opType.contains(QLatin1String("backprop"));
    if (gradient) {
        out.role = TensorRole::Gradient;
        out.biasGradient = kind.startsWith(QLatin1String("bias")) || name.contains(QLatin1String("bias"));
        return out;
    }
    if (namedCopy) // an fp16 copy of a weight is not the weight the optimizer updates
        return out;
    if (isWeightWord(kind) || kind.endsWith(QLatin1String(".weight"))) {
        out.role = TensorRole::Weight;
        return out;
    }
    if (isBiasWord(kind) || kind.endsWith(QLatin1String(".bias"))) {
        out.role = TensorRole::Bias;
        return out;
    }
    const bool forwardValue = kind == QLatin1String("act") || kind == QLatin1String("activation")
        || kind == QLatin1String("output") || kind == QLatin1String("out");
    if (forwardValue) {
        out.activation = activationOf(opType.isEmpty() ? series.nodeKey : opType);
        out.role = out.activation == ActivationKind::None ? TensorRole::Other : TensorRole::Activation;
    }
    return out;
}

TensorClass classifyTag(const QString& tag)
{
    TensorClass out;
    const QString lower = tag.toLower();
    if (isOptimizerState(lower))
        return out;
    const bool gradient = isGradientName(lower);
    const auto [layer, last] = splitLast(gradient ? withoutGradientMarks(tag) : tag);
    const QString word = last.toLower();
    out.layer = layer;
    if (gradient) {
        out.role = TensorRole::Gradient;
        out.biasGradient = isBiasWord(word);
        return out;
    }
    if (isWeightWord(word))
        out.role = TensorRole::Weight;
    else if (isBiasWord(word))
        out.role = TensorRole::Bias;
    return out;
}

QString gradientTarget(const QString& gradientName)
{
    return withoutGradientMarks(withoutPrecisionMark(gradientName));
}

QString withoutPrecisionMark(QString name)
{
    static const QRegularExpression mark(QStringLiteral("[._](fp16|half|bf16|float16|bfloat16)$"),
                                         QRegularExpression::CaseInsensitiveOption);
    name.remove(mark);
    return name;
}

bool naturalLess(const QString& a, const QString& b)
{
    int i = 0;
    int j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            int ei = i;
            int ej = j;
            while (ei < a.size() && a[ei].isDigit())
                ++ei;
            while (ej < b.size() && b[ej].isDigit())
                ++ej;
            const qulonglong x = a.mid(i, ei - i).toULongLong();
            const qulonglong y = b.mid(j, ej - j).toULongLong();
            if (x != y)
                return x < y;
            i = ei;
            j = ej;
            continue;
        }
        const QChar ca = a[i].toLower();
        const QChar cb = b[j].toLower();
        if (ca != cb)
            return ca < cb;
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

QString LayerOrder::normalized(const QString& key)
{
    QString out = key;
    out.replace(QLatin1Char('.'), QLatin1Char('/'));
    while (out.startsWith(QLatin1Char('/')))
        out.remove(0, 1);
    return out;
}

void LayerOrder::addGraphKeys(const QStringList& graphNodeKeys)
{
    for (const QString& key : graphNodeKeys) {
        const QString k = normalized(key);
        if (!k.isEmpty() && !m_graph.contains(k))
            m_graph.insert(k, int(m_graph.size()));
    }
}

void LayerOrder::addLayer(const QString& layer)
{
    if (!m_byName.contains(layer)) {
        m_byName.insert(layer, -1);
        m_layers << layer;
    }
}

void LayerOrder::finish()
{
    std::sort(m_layers.begin(), m_layers.end(), naturalLess);
    for (int i = 0; i < m_layers.size(); ++i)
        m_byName[m_layers[i]] = i;
}

double LayerOrder::position(const QString& layer, bool* fromGraph) const
{
    const auto it = m_graph.constFind(normalized(layer));
    if (fromGraph)
        *fromGraph = it != m_graph.constEnd();
    if (it != m_graph.constEnd())
        return *it;
    // Layers the graph does not name come after those it does, in name order.
    return double(m_graph.size()) + m_byName.value(layer, int(m_layers.size()));
}

} // namespace runlens::models::advisor
