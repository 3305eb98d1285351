#include "widgets/graph/nodedetailswidget.h"

#include "widgets/graph/opdocumentation.h"

#include <QDesktopServices>
#include <QFileInfo>
#include <QLocale>
#include <QTextBrowser>
#include <QUrl>
#include <QUrlQuery>
#include <QVBoxLayout>

namespace runlens::widgets::graph {

using models::graph::ScopeItemKind;

namespace {

QString esc(const std::string& text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

QString row(const QString& key, const QString& value)
{
    return QStringLiteral("<tr><td style='color:#666;padding-right:10px'>%1</td><td>%2</td></tr>").arg(key, value);
}

/// Where a weight's values are: "inference.pdiparams at byte 2,262 (160.0 KiB)", with a link that shows them
/// in the Tensors panel when they are raw elements; empty when not located.
QString valuesText(const models::graph::Graph& graph, const models::graph::Node& weight)
{
    if (!weight.data || weight.data->offset < 0)
        return {};
    const models::graph::TensorLocation& data = *weight.data;
    const QString file = data.file.empty() ? QFileInfo(graph.path).fileName() : QString::fromStdString(data.file);
    const QLocale locale;
    QString text = NodeDetailsWidget::tr("%1 at byte %2 (%3)")
                       .arg(file.toHtmlEscaped(), locale.toString(qlonglong(data.offset)),
                            locale.formattedDataSize(data.length));
    if (const QString location = models::graph::weightValuesLocation(graph, weight); !location.isEmpty()) {
        QUrl url;
        url.setScheme(QStringLiteral("tensor"));
        url.setPath(location);
        text += QStringLiteral(" &nbsp;<a href='%1'>%2</a>")
                    .arg(url.toString(QUrl::FullyEncoded).toHtmlEscaped(), NodeDetailsWidget::tr("Show values"));
    } else if (data.encoding == "bytes") {
        // Strings, compressed or big-endian bytes, or a length the shape does not account for.
        text += QStringLiteral(" &nbsp;") + NodeDetailsWidget::tr("(not plain elements of its type and shape)");
    }
    return text;
}

} // namespace

NodeDetailsWidget::NodeDetailsWidget(QWidget* parent)
    : QWidget(parent)
    , m_urlOpener([](const QUrl& url) { return QDesktopServices::openUrl(url); })
    , m_browser(new QTextBrowser(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_browser);
    m_browser->setOpenLinks(false);
    m_browser->setPlaceholderText(tr("Select a node in the Graph panel to see its details."));
    connect(m_browser, &QTextBrowser::anchorClicked, this, &NodeDetailsWidget::onAnchorClicked);
}

void NodeDetailsWidget::setTree(std::shared_ptr<const models::graph::ScopeTree> tree)
{
    m_tree = std::move(tree);
    showItem(-1);
}

QString NodeDetailsWidget::itemLink(int item)
{
    return QStringLiteral("item:%1").arg(item);
}

void NodeDetailsWidget::showItem(int item)
{
    m_item = m_tree && item >= 0 && item < m_tree->itemCount() ? item : -1;
    if (m_item >= 0) {
        m_browser->setHtml(html() + dumpsHtml());
        return;
    }
    // Nothing selected: what the file says about the graph as a whole (versions, tags, signatures, checkpoint).
    QString out;
    if (m_tree && !m_tree->graph().metadata.empty()) {
        out = QStringLiteral("<h3>%1</h3><table>").arg(tr("Graph"));
        for (const models::graph::Attribute& a : m_tree->graph().metadata)
            out += row(esc(a.name), esc(a.value));
        out += QStringLiteral("</table><p style='color:#666'>%1</p>")
                   .arg(tr("Select a node in the Graph panel to see its details."));
    }
    m_browser->setHtml(out);
}

void NodeDetailsWidget::setProfile(std::shared_ptr<const models::graph::ItemProfile> profile)
{
    m_profile = std::move(profile);
    showItem(m_item);
}

QString NodeDetailsWidget::text() const
{
    return m_browser->toPlainText();
}

QUrl NodeDetailsWidget::documentationUrl() const
{
    if (!m_tree || m_item < 0)
        return {};
    const models::graph::ScopeItem& item = m_tree->item(m_item);
    if (item.kind != ScopeItemKind::Op)
        return {};
    const models::graph::Graph& g = m_tree->graph();
    const models::graph::Node& node = g.nodes[std::size_t(item.node)];
    return OpDocumentation::builtIn().url(OpDocumentation::frameworkFor(g.format), QString::fromStdString(node.opType));
}

void NodeDetailsWidget::onAnchorClicked(const QUrl& url)
{
    // Only the op documentation links are web pages; they open on this click alone.
    if (url.scheme() == QLatin1String("https") || url.scheme() == QLatin1String("http")) {
        if (m_urlOpener)
            m_urlOpener(url);
        return;
    }
    if (url.scheme() == QLatin1String("item")) {
        bool ok = false;
        const int item = url.path().toInt(&ok);
        if (ok)
            emit itemActivated(item);
        return;
    }
    if (url.scheme() == QLatin1String("tensor")) {
        emit tensorRequested(url.path());
        return;
    }
    if (url.scheme() == QLatin1String("source")) {
        const int line = QUrlQuery(url).queryItemValue(QStringLiteral("line")).toInt();
        emit sourceRequested(url.path(), line);
    }
}

QString NodeDetailsWidget::html() const
{
    const models::graph::ScopeTree& tree = *m_tree;
    const models::graph::ScopeItem& item = tree.item(m_item);
    const auto link = [&tree](int id, const QString& text) {
        if (id < 0)
            return text.toHtmlEscaped();
        return QStringLiteral("<a href='%1'>%2</a>").arg(itemLink(id), text.toHtmlEscaped());
    };
    QString out = QStringLiteral("<h3>%1</h3><table>").arg(esc(item.label));
    if (m_profile && m_profile->tree == m_tree) {
        const std::int64_t time = m_profile->time(m_tree.get(), m_item);
        const QString value = time <= 0
            ? tr("none matched")
            : tr("%1 ms (%2% of the matched time)")
                  .arg(double(time) / 1e6, 0, 'f', 3)
                  .arg(m_profile->total > 0 ? 100.0 * double(time) / double(m_profile->total) : 0.0, 0, 'f', 1);
        out += row(tr("Profiler time"), value);
    }
    if (item.kind != ScopeItemKind::Op) {
        const QString kind = item.kind == ScopeItemKind::Series ? tr("Series")
            : item.kind == ScopeItemKind::Section               ? tr("Section")
                                                                : tr("Group");
        out += row(tr("Kind"), kind);
        out += row(tr("Scope"), esc(item.key.substr(2)));
        out += row(tr("Ops"), QString::number(item.opCount));
        out += row(tr("Children"), QString::number(item.children.size()));
        out += QStringLiteral("</table><h4>%1</h4>").arg(tr("Members"));
        int shown = 0;
        for (const int child : item.children) {
            if (++shown > 200) {
                out += tr("\u2026 and %n more", nullptr, int(item.children.size()) - 200);
                break;
            }
            out += link(child, QString::fromStdString(tree.item(child).label)) + QStringLiteral("<br>");
        }
        return out;
    }
    const models::graph::Graph& g = tree.graph();
    const models::graph::Node& node = g.nodes[std::size_t(item.node)];
    out += row(tr("Name"), esc(node.name));
    out += row(tr("Scope"), esc(node.scope));
    QString opType = esc(node.opType);
    const QUrl documentation = documentationUrl();
    if (documentation.isValid()) {
        const QString framework = OpDocumentation::builtIn().frameworkName(OpDocumentation::frameworkFor(g.format));
        opType += QStringLiteral(" &nbsp;<a href='%1' title='%2'>%3</a>")
                      .arg(documentation.toString(QUrl::FullyEncoded).toHtmlEscaped(),
                           documentation.toString().toHtmlEscaped(),
                           tr("%1 API documentation").arg(framework).toHtmlEscaped());
    }
    out += row(tr("Op type"), opType);
    out += row(tr("Kind"), QString::fromLatin1(models::graph::nodeKindId(node.kind)));
    out += row(tr("Id"), esc(node.id));
    if (const QString values = valuesText(g, node); !values.isEmpty())
        out += row(tr("Values"), values);
    out += QStringLiteral("</table>");
    if (!node.attributes.empty()) {
        out += QStringLiteral("<h4>%1</h4><table>").arg(tr("Attributes"));
        for (const models::graph::Attribute& attribute : node.attributes)
            out += row(esc(attribute.name), esc(attribute.value));
        out += QStringLiteral("</table>");
    }
    const auto producerText = [&](const models::graph::Port& port) {
        if (port.producer < 0)
            return QString();
        const models::graph::Node& producer = g.nodes[std::size_t(port.producer)];
        const int target = tree.itemOfNode(port.producer);
        QString text = link(target, QString::fromStdString(producer.fullName()));
        if (tree.isFolded(port.producer))
            text += QStringLiteral(" <i>(%1)</i>").arg(tr("folded"));
        return text;
    };
    out += QStringLiteral("<h4>%1</h4><table>").arg(tr("Inputs"));
    for (std::size_t i = 0; i < node.inputs.size(); ++i) {
        const models::graph::Port& port = node.inputs[i];
        QString value = esc(port.type.text());
        const QString producer = producerText(port);
        if (!producer.isEmpty())
            value += QStringLiteral(" \u2190 ") + producer;
        if (port.control)
            value += QStringLiteral(" <i>(%1)</i>").arg(tr("control"));
        out += row(port.name.empty() ? QString::number(i) : esc(port.name), value);
    }
    out += QStringLiteral("</table><h4>%1</h4><table>").arg(tr("Outputs"));
    for (std::size_t i = 0; i < node.outputs.size(); ++i) {
        const models::graph::Port& port = node.outputs[i];
        QStringList consumers;
        for (const models::graph::Edge& edge : g.edges) {
            if (edge.from == item.node && edge.fromSlot == int(i))
                consumers << link(tree.itemOfNode(edge.to),
                                  QString::fromStdString(g.nodes[std::size_t(edge.to)].fullName()));
            if (consumers.size() > 50)
                break;
        }
        QString value = esc(port.type.text());
        if (!consumers.isEmpty())
            value += QStringLiteral(" \u2192 ") + consumers.join(QStringLiteral(", "));
        out += row(port.name.empty() ? QString::number(i) : esc(port.name), value);
    }
    out += QStringLiteral("</table>");
    if (!item.folded.empty()) {
        out += QStringLiteral("<h4>%1</h4><table>").arg(tr("Weights and constants"));
        for (const int folded : item.folded) {
            const models::graph::Node& weight = g.nodes[std::size_t(folded)];
            const std::string type = weight.outputs.empty() ? std::string() : weight.outputs.front().type.text();
            QString text = esc(type);
            if (const QString values = valuesText(g, weight); !values.isEmpty())
                text += QStringLiteral(" \u00b7 ") + values;
            out += row(esc(weight.fullName()), text);
        }
        out += QStringLiteral("</table>");
    }
    if (!node.sources.empty()) {
        out += QStringLiteral("<h4>%1</h4>").arg(tr("Source"));
        for (const models::graph::SourceLocation& source : node.sources) {
            const QString location = QStringLiteral("%1:%2").arg(QString::fromStdString(source.file)).arg(source.line);
            const QString file = QString::fromStdString(source.file);
            QUrl link;
            link.setScheme(QStringLiteral("source"));
            link.setPath(QFileInfo(file).absoluteFilePath());
            link.setQuery(QStringLiteral("line=%1").arg(source.line));
            out += QFileInfo::exists(file)
                ? QStringLiteral("<a href='%1'>%2</a>").arg(link.toString(QUrl::FullyEncoded), location.toHtmlEscaped())
                : location.toHtmlEscaped();
            if (!source.text.empty())
                out += QStringLiteral("<br><code>%1</code>").arg(esc(source.text));
            out += QStringLiteral("<br>");
        }
    }
    return out;
}

void NodeDetailsWidget::setDumps(std::shared_ptr<const models::graph::DumpIndex> dumps)
{
    m_dumps = std::move(dumps);
    showItem(m_item);
}

QString NodeDetailsWidget::dumpsHtml() const
{
    if (!m_dumps || m_item < 0)
        return {};
    const QList<int> found = m_dumps->findForItem(*m_tree, m_item);
    if (found.isEmpty())
        return {};
    // Enough to see what is there; the Tensor inspector lists every file of a step.
    constexpr int kMaxRows = 300;
    QString out = QStringLiteral("<h4>%1</h4>").arg(tr("Tensors in dumps"));
    int step = -2;
    int shown = 0;
    for (const int index : found) {
        if (++shown > kMaxRows) {
            out += tr("\u2026 and %n more", nullptr, int(found.size()) - kMaxRows);
            return out;
        }
        const models::graph::DumpEntry& entry = m_dumps->entries()[index];
        if (entry.step != step) {
            step = entry.step;
            const QString title = step < 0 ? tr("Step unknown") : tr("Step %1").arg(step);
            out += QStringLiteral("<p style='margin:4px 0 0 0'><b>%1</b></p>").arg(title);
        }
        QUrl url;
        url.setScheme(QStringLiteral("tensor"));
        url.setPath(entry.path);
        out += QStringLiteral("<a href='%1'>%2</a> \u00b7 %3 \u00b7 %4<br>")
                   .arg(url.toString(QUrl::FullyEncoded).toHtmlEscaped(), entry.role().toHtmlEscaped(),
                        entry.typeText().toHtmlEscaped(), QFileInfo(entry.path).fileName().toHtmlEscaped());
    }
    return out;
}

} // namespace runlens::widgets::graph
