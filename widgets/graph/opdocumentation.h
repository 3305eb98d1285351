#pragma once

#include "models/graph/graph.h"

#include <QByteArray>
#include <QHash>
#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <vector>

namespace runlens::widgets::graph {

/// Maps a node's op type to its framework's API page, from the table in
/// resources/opdocs/op_documentation.json (a Qt resource): exact op types first, then prefix rules with a
/// name list or pattern and a URL template. An op type that nothing matches has no page. Plain lookups;
/// opening a page is the caller's business.
class OpDocumentation final
{
public:
    /// The table of the application's resources, parsed once.
    static const OpDocumentation& builtIn();
    /// A table from JSON text; an invalid one is empty and says why in errorString().
    static OpDocumentation fromJson(const QByteArray& json);

    /// The framework whose API a graph read from `format` uses ("pytorch", "onnx", "mindspore",
    /// "tensorflow"), or empty when the format does not say (Graphviz files, msprobe dumps).
    static QString frameworkFor(models::graph::GraphFormat format);

    /// The API page of `opType` in `framework`, or an invalid QUrl.
    QUrl url(const QString& framework, const QString& opType) const;
    /// The framework's name as users know it ("PyTorch"), or empty.
    QString frameworkName(const QString& framework) const;
    QStringList frameworks() const { return m_frameworks.keys(); }
    bool isEmpty() const { return m_frameworks.isEmpty(); }
    QString errorString() const { return m_error; }

private:
    struct Rule
    {
        QString prefix;
        QString stripSuffix;
        QStringList names; ///< sorted; when set, the rest must be one of them
        QRegularExpression pattern; ///< anchored; used without names
        QStringList exclude;
        QString url;
    };
    struct Framework
    {
        QString name;
        QHash<QString, QString> ops;
        std::vector<Rule> rules;
    };

    QHash<QString, Framework> m_frameworks;
    QString m_error;
};

} // namespace runlens::widgets::graph
