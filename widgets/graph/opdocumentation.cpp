#include "widgets/graph/opdocumentation.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>

#include <algorithm>

namespace runlens::widgets::graph {

Q_LOGGING_CATEGORY(lcOpDocs, "runlens.widgets.graph.opdocs", QtWarningMsg)

namespace {

QStringList stringList(const QJsonValue& value)
{
    QStringList out;
    for (const QJsonValue& v : value.toArray())
        out << v.toString();
    return out;
}

} // namespace

const OpDocumentation& OpDocumentation::builtIn()
{
    static const OpDocumentation table = [] {
        QFile file(QStringLiteral(":/opdocs/op_documentation.json"));
        if (!file.open(QIODevice::ReadOnly)) {
            qCWarning(lcOpDocs) << "the op documentation table is missing from the resources";
            return OpDocumentation();
        }
        OpDocumentation parsed = fromJson(file.readAll());
        if (!parsed.m_error.isEmpty())
            qCWarning(lcOpDocs) << "the op documentation table is invalid:" << parsed.m_error;
        return parsed;
    }();
    return table;
}

OpDocumentation OpDocumentation::fromJson(const QByteArray& json)
{
    OpDocumentation table;
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (!document.isObject()) {
        table.m_error = error.error == QJsonParseError::NoError ? QStringLiteral("the top level is not an object")
                                                                : error.errorString();
        return table;
    }
    const QJsonObject frameworks = document.object().value(QStringLiteral("frameworks")).toObject();
    for (auto it = frameworks.begin(); it != frameworks.end(); ++it) {
        const QJsonObject o = it.value().toObject();
        Framework framework;
        framework.name = o.value(QStringLiteral("name")).toString(it.key());
        const QJsonObject ops = o.value(QStringLiteral("ops")).toObject();
        for (auto op = ops.begin(); op != ops.end(); ++op)
            framework.ops.insert(op.key(), op.value().toString());
        for (const QJsonValue& value : o.value(QStringLiteral("rules")).toArray()) {
            const QJsonObject r = value.toObject();
            Rule rule;
            rule.prefix = r.value(QStringLiteral("prefix")).toString();
            rule.stripSuffix = r.value(QStringLiteral("strip_suffix")).toString();
            rule.names = stringList(r.value(QStringLiteral("names")));
            std::sort(rule.names.begin(), rule.names.end());
            rule.exclude = stringList(r.value(QStringLiteral("exclude")));
            rule.url = r.value(QStringLiteral("url")).toString();
            const QString pattern = r.value(QStringLiteral("pattern")).toString();
            if (!pattern.isEmpty()) {
                rule.pattern.setPattern(QRegularExpression::anchoredPattern(pattern));
                if (!rule.pattern.isValid()) {
                    table.m_error = QStringLiteral("%1: invalid pattern %2: %3")
                                        .arg(it.key(), pattern, rule.pattern.errorString());
                    continue;
                }
            }
            if (rule.url.isEmpty() || (rule.names.isEmpty() && pattern.isEmpty())) {
                table.m_error = QStringLiteral("%1: a rule needs a url and names or a pattern").arg(it.key());
                continue;
            }
            framework.rules.push_back(std::move(rule));
        }
        table.m_frameworks.insert(it.key(), std::move(framework));
    }
    return table;
}

QString OpDocumentation::frameworkFor(models::graph::GraphFormat format)
{
    switch (format) {
    case models::graph::GraphFormat::Onnx:
        return QStringLiteral("onnx");
    case models::graph::GraphFormat::TorchScript:
        return QStringLiteral("pytorch");
    case models::graph::GraphFormat::MindSporeIr:
    case models::graph::GraphFormat::AnfIr:
    case models::graph::GraphFormat::AnfIrDebugger:
    case models::graph::GraphFormat::ParallelStrategy:
    case models::graph::GraphFormat::MindIr:
        return QStringLiteral("mindspore");
    case models::graph::GraphFormat::TensorFlow:
        return QStringLiteral("tensorflow");
    case models::graph::GraphFormat::Paddle:
    case models::graph::GraphFormat::VisualDlGraph:
        return QStringLiteral("paddle");
    case models::graph::GraphFormat::TfLite:
        return QStringLiteral("tflite");
    case models::graph::GraphFormat::Dot:
    case models::graph::GraphFormat::MsprobeDump:
        break;
    }
    return {};
}

QString OpDocumentation::frameworkName(const QString& framework) const
{
    const auto found = m_frameworks.constFind(framework);
    return found == m_frameworks.constEnd() ? QString() : found->name;
}

QUrl OpDocumentation::url(const QString& framework, const QString& opType) const
{
    const auto found = m_frameworks.constFind(framework);
    if (found == m_frameworks.constEnd() || opType.isEmpty())
        return {};
    const QString exact = found->ops.value(opType);
    if (!exact.isEmpty())
        return QUrl(exact);
    for (const Rule& rule : found->rules) {
        if (!opType.startsWith(rule.prefix))
            continue;
        QString rest = opType.mid(rule.prefix.size());
        if (!rule.stripSuffix.isEmpty() && rest.size() > rule.stripSuffix.size() && rest.endsWith(rule.stripSuffix))
            rest.chop(rule.stripSuffix.size());
        if (rest.isEmpty())
            continue;
        const bool matches = rule.names.isEmpty() ? rule.pattern.match(rest).hasMatch() && !rule.exclude.contains(rest)
                                                  : std::binary_search(rule.names.begin(), rule.names.end(), rest);
        if (!matches)
            continue;
        const QString last = rest.section(QLatin1Char('.'), -1);
        QString url = rule.url;
        url.replace(QStringLiteral("{name}"), rest).replace(QStringLiteral("{last}"), last);
        return QUrl(url);
    }
    return {};
}

} // namespace runlens::widgets::graph
