#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTimer;
class QTreeView;

namespace runlens::models {
class RunBrowserModel;
}

namespace runlens::widgets::runbrowser {

/// The Run Browser dock's content: a tree of runs, ranks, folders and artifacts with kind and state icons,
/// a filter field and a one-line summary. It shows a RunBrowserModel owned by the application.
class RunBrowserWidget final : public QWidget
{
    Q_OBJECT
public:
    explicit RunBrowserWidget(models::RunBrowserModel* model, QWidget* parent = nullptr);

    QTreeView* view() const { return m_view; }
    /// Selects and reveals an artifact.
    void revealArtifact(int artifactIndex);

signals:
    /// Double-click or Enter on an artifact.
    void artifactActivated(int artifactIndex);
    /// Double-click or Enter on a run row.
    void runActivated(const QString& run);
    /// "Compare Dumps" was chosen with two runs, folders or files selected: the first is the bench.
    void compareDumpsRequested(const QString& bench, const QString& target);

private:
    void activate(const QModelIndex& proxyIndex);
    void showContextMenu(const QPoint& pos);
    /// Expands the rows the model suggests, and with a filter the way to every row whose name matches.
    void applyExpansion();
    /// Sizes the Kind, Size and State columns to what the expanded rows hold; Name takes the rest.
    void fitColumns();
    /// Narrows Kind when the dock is too narrow for it beside a readable Name.
    void shareWidth();
    bool eventFilter(QObject* watched, QEvent* event) override;
    void updateSummary();

    models::RunBrowserModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTreeView* m_view;
    QLineEdit* m_filter;
    QLabel* m_summary;
    QTimer* m_fitTimer;
    int m_stateWidth = 0; ///< the longest word of an import's states, with its icon
    int m_kindWidth = 0; ///< what Kind's contents ask for
    int m_deepest = 1; ///< depth of the deepest row in view (top-level rows are 1)
};

} // namespace runlens::widgets::runbrowser
