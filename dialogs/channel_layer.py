"""The channel layer on the production stack: channels_redis's pub/sub layer with its publishes sent in batches.

channels_redis (4.3) publishes under one asyncio lock per Redis shard, held across the round trip to Redis: every
`group_send` of a process waits for every publish before it, one round trip each. Under a crowd that queue showed in
the tail: at 50 rooms on one Daphne, the broadcast step of a response took 48 ms at the 99th percentile against under
1 ms at the median (bench/chat_load.py; docs/benchmark_history.md, "Where a message's CPU goes").

Here a publish made while nothing is in flight goes out at once; one made while a batch is in flight joins the
shard's outbox, and the outbox goes out next as one batch (one write, its replies read together) while the next one
gathers behind it. A publish waits at most for the batch in flight and its own, and the round trips and the event
loop's writes are shared by every publish that arrived meanwhile. The order is the order of the calls (one sender at
a time, each batch in order), as under the lock. A batch that fails fails every publish in it with the same error,
as each would have failed alone. Nothing else of the layer changes: subscriptions, delivery, reconnection and
retries are channels_redis's and redis-py's.

The layer's private parts this builds on (the per-loop layer, its `_shards`, the shard's lock and `_ensure_redis`)
are those of the pinned channels_redis; dialogs/tests/test_channel_layer.py runs the layer against a real Redis.
"""

from __future__ import annotations

import asyncio

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection
from channels_redis.utils import _wrap_close, decode_hosts


class BatchingShard(RedisSingleShardConnection):
    """One Redis shard whose publishes go out in batches."""

    def __init__(self, host, channel_layer):
        super().__init__(host, channel_layer)
        self._outbox: list[tuple[str, bytes, asyncio.Future]] = []
        self._sending = False  # a batch is in flight (publishes wait in the outbox meanwhile)
        self.batches_sent = 0  # writes to Redis, for the tests
        self.publishes_sent = 0

    async def publish(self, channel, message):
        if not self._sending:
            # Nothing in flight: this publish goes out at once, from the caller's own task (a task of its own per
            # lone publish cost more than it saved); what arrives meanwhile waits in the outbox for a sender task.
            self._sending = True
            try:
                await self._publish_all([(channel, message)])
            finally:
                self._hand_over()
            return
        waiter = asyncio.get_running_loop().create_future()
        self._outbox.append((channel, message, waiter))
        # A caller cancelled meanwhile cancels only its wait: its message goes out with its batch.
        await waiter

    def _hand_over(self) -> None:
        """The batch in flight is done: the outbox's publishes go out next, from a sender task, or nothing is sent."""
        if self._outbox:
            asyncio.ensure_future(self._send_outbox())
        else:
            self._sending = False

    async def _send_outbox(self) -> None:
        try:
            while self._outbox:
                batch, self._outbox = self._outbox, []
                try:
                    await self._publish_all([(channel, message) for channel, message, _ in batch])
                except Exception as exc:  # noqa: BLE001 - each publish of the batch fails with it
                    for _, _, waiter in batch:
                        if not waiter.done():
                            waiter.set_exception(exc)
                    continue
                except BaseException:  # cancelled (the loop is closing): nothing more is sent
                    for _, _, waiter in [*batch, *self._outbox]:
                        waiter.cancel()
                    self._outbox = []
                    raise
                for _, _, waiter in batch:
                    if not waiter.done():
                        waiter.set_result(None)
        finally:
            self._sending = False

    async def _publish_all(self, messages: list[tuple[str, bytes]]) -> None:
        """PUBLISH each of `messages` in one write, then read their replies, on a connection of the layer's pool;
        a lost connection is retried as redis-py retries a command (the pool's Retry: reconnect, resend). Said to the
        connection itself: redis-py's client and pipeline wrap each call in bookkeeping that costs more CPU than the
        round trip (a PUBLISH through the client 220 µs, a pipeline of one 310 µs, this 150 µs, on loopback)."""
        async with self._lock:  # as channels_redis's publish: not while the shard subscribes or is flushed
            self._ensure_redis()
            pool = self._redis.connection_pool
            connection = await pool.get_connection()
            try:
                packed = connection.pack_commands([("PUBLISH", channel, message) for channel, message in messages])

                async def send():
                    await connection.send_packed_command(packed)
                    for _ in messages:
                        await connection.read_response()

                async def failed(error):
                    await connection.disconnect(error=error)

                await connection.retry.call_with_retry(send, failed)
            finally:
                await pool.release(connection)
        self.batches_sent += 1
        self.publishes_sent += len(messages)


class BatchingLoopLayer(RedisPubSubLoopLayer):
    """channels_redis's layer for one event loop, on BatchingShard connections."""

    def __init__(self, hosts=None, *args, **kwargs):
        super().__init__(hosts, *args, **kwargs)
        self._shards = [BatchingShard(host, self) for host in decode_hosts(hosts)]


class BatchingPubSubChannelLayer(RedisPubSubChannelLayer):
    """The layer named in settings.CHANNEL_LAYERS when REDIS_URL is set: one BatchingLoopLayer per event loop."""

    def _get_layer(self):
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = BatchingLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)  # the loop's close flushes its layer, as channels_redis's own does
        return layer
