#include "widgets/tensor/backgroundwork.h"

#include <thread>

#if defined(Q_OS_LINUX) || defined(__linux__)
#include <cerrno>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace runlens::widgets::tensor {

void runAtBackgroundPriority(const std::function<void()>& work)
{
    // A dedicated thread, because an unprivileged thread cannot raise its priority back: a lowered pool
    // thread would slow every later task that lands on it.
    std::thread thread([&work] {
#if defined(__linux__)
        // Linux keeps the nice value per thread; threads created from here inherit it. Lowered to 10, never
        // raised: a caller already nicer than that (a batch job at 19) keeps its value, even where the process
        // could raise it (as root).
        const id_t tid = id_t(syscall(SYS_gettid));
        errno = 0;
        const int current = getpriority(PRIO_PROCESS, tid);
        if (errno != 0 || current < 10)
            setpriority(PRIO_PROCESS, tid, 10);
#endif
        work();
    });
    thread.join();
}

} // namespace runlens::widgets::tensor
