"""Signals between focused's components (sent through the crawler's SignalManager)."""

host_failed = object()  # host: str, reason: str — a fetch of the host failed
host_succeeded = object()  # host: str — the host answered
request_failed = object()  # request: Request — a fetch gave no page (the spider's errback saw it)
page_skipped = object()  # response: Response — the spider read the response and will write no item for it
page_visited = (
    object()
)  # visit: focused.refresh.history.Visit — a fetch of a page ended (new, changed, unchanged, gone)
