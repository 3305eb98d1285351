#include "widgets/common/replotwhenshown.h"

#include <qcustomplot.h>

#include <QEvent>

namespace runlens::widgets {

namespace {

const QString kFilterName = QStringLiteral("runlens_replotWhenShown");

bool onScreen(const QCustomPlot* plot)
{
    return plot->isVisible() && !plot->visibleRegion().isEmpty();
}

/// Holds back a plot's replots while it is out of sight and does the last one before its next paint; the
/// resizes until then do not replot either.
class DeferredReplot final : public QObject
{
public:
    explicit DeferredReplot(QCustomPlot* plot)
        : QObject(plot)
        , m_plot(plot)
    {
        setObjectName(kFilterName);
        plot->installEventFilter(this);
    }

    bool pending = false;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched != m_plot || !pending)
            return false;
        if (event->type() == QEvent::Resize) {
            // QCustomPlot replots on every resize, and a dock being shown is resized several times before its
            // first paint (a replot of ten thousand bars takes 100 ms): the new size is enough until the paint.
            m_plot->setViewport(m_plot->rect());
            return true;
        }
        if (event->type() == QEvent::Paint) {
            pending = false;
            m_plot->setViewport(m_plot->rect());
            // The buffers are drawn here; this paint event then shows them.
            m_plot->replot(QCustomPlot::rpQueuedRefresh);
        }
        return false;
    }

private:
    QCustomPlot* m_plot;
};

} // namespace

void replotWhenShown(QCustomPlot* plot)
{
    // The filter has no meta-object of its own: found by its name.
    auto* deferred = static_cast<DeferredReplot*>(plot->findChild<QObject*>(kFilterName, Qt::FindDirectChildrenOnly));
    if (onScreen(plot)) {
        if (deferred)
            deferred->pending = false;
        plot->replot();
        return;
    }
    if (!deferred)
        deferred = new DeferredReplot(plot);
    deferred->pending = true;
}

} // namespace runlens::widgets
