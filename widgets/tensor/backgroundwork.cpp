#include "widgets/tensor/backgroundwork.h"

#include <thread>

#if defined(Q_OS_LINUX) || defined(__linux__)
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
        // Linux keeps the nice value per thread; threads created from here inherit it.
        setpriority(PRIO_PROCESS, id_t(syscall(SYS_gettid)), 10);
#endif
        work();
    });
    thread.join();
}

} // namespace runlens::widgets::tensor
