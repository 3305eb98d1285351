#pragma once

#include "models/graph/dumpindex.h"
#include "models/graph/graphoverlay.h"
#include "models/graph/scopetree.h"

#include <QWidget>

#include <functional>
#include <memory>

class QTextBrowser;
class QUrl;

namespace runlens::widgets::graph {

/// The details of one graph item for a dock next to the Graph panel: name, full scope, op type, kind,
/// attributes, inputs and outputs with shapes and dtypes linking to the neighbouring nodes, folded
/// weights, and source locations (shown at their line when the file exists). An op type the framework
/// documents links to its API page (OpDocumentation); a click opens it in the system browser, nothing
/// opens without one.
class NodeDetailsWidget final : public QWidget
{
    Q_OBJECT
public:
    explicit NodeDetailsWidget(QWidget* parent = nullptr);

    void setTree(std::shared_ptr<const models::graph::ScopeTree> tree);
    void showItem(int item);
    /// Profiler time per item: shown with its share when made for the shown tree.
    void setProfile(std::shared_ptr<const models::graph::ItemProfile> profile);
    /// The run's dump tensors: those of the shown item are listed by step.
    void setDumps(std::shared_ptr<const models::graph::DumpIndex> dumps);
    int shownItem() const { return m_item; }
    /// The shown details as plain text.
    QString text() const;
    /// The link target that activates `item` ("item:N").
    static QString itemLink(int item);
    /// The API page the shown node's op type links to, or an invalid QUrl.
    QUrl documentationUrl() const;
    /// Opens web links the user clicks; QDesktopServices::openUrl by default (tests replace it).
    using UrlOpener = std::function<bool(const QUrl&)>;
    void setUrlOpener(UrlOpener opener) { m_urlOpener = std::move(opener); }

signals:
    /// The user followed a link to another item (a producer, a consumer or a member).
    void itemActivated(int item);
    /// The user followed a source location that exists on this machine.
    void sourceRequested(const QString& path, int line);
    /// The user followed a dumped tensor (an absolute file path) to view it.
    void tensorRequested(const QString& path);

private:
    void onAnchorClicked(const QUrl& url);
    QString html() const;
    QString dumpsHtml() const;

    std::shared_ptr<const models::graph::ScopeTree> m_tree;
    std::shared_ptr<const models::graph::ItemProfile> m_profile;
    std::shared_ptr<const models::graph::DumpIndex> m_dumps;
    int m_item = -1;
    UrlOpener m_urlOpener;
    QTextBrowser* m_browser = nullptr;
};

} // namespace runlens::widgets::graph
