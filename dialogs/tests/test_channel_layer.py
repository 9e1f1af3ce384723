"""The production channel layer (dialogs.channel_layer) against a real Redis: publishes sent at once together go out in
a few batches and arrive in the order they were made; a lone publish goes out at once; a Redis that is down fails
every publish waiting on it with an error (nothing hangs), and the layer publishes again once Redis is back."""

import asyncio
import contextlib

import pytest
import redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff

from dialogs.channel_layer import BatchingPubSubChannelLayer
from tools.test_stack import redis_instance

pytestmark = pytest.mark.services

GROUP = "dialogue-1"


@pytest.fixture(scope="module")
def redis_():
    with redis_instance() as server:
        yield server


def _layer(server) -> BatchingPubSubChannelLayer:
    # Retries as config/settings.py's layer has them, shorter: a publish to a Redis that is down fails after them.
    retry = Retry(ExponentialBackoff(cap=0.2, base=0.05), 2)
    return BatchingPubSubChannelLayer(hosts=[{"address": server.url, "retry": retry}])


async def _subscribed(layer, server, group: str = GROUP) -> str:
    """A channel of `layer` in `group`, once Redis counts the group's subscription (publishes before it are lost)."""
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    client = redis.Redis.from_url(server.url)
    try:
        name = layer._get_layer()._get_group_channel_name(group)
        for _ in range(500):
            if client.pubsub_numsub(name)[0][1] >= 1:
                return channel
            await asyncio.sleep(0.01)
        raise AssertionError(f"{name} was never subscribed")
    finally:
        client.close()


@contextlib.asynccontextmanager
async def _sender_and_receiver(server):
    """Two layers, as two server processes would hold: one to publish with, one with a channel in GROUP."""
    sender, receiver = _layer(server), _layer(server)
    try:
        yield sender, receiver, await _subscribed(receiver, server)
    finally:
        await sender.flush()
        await receiver.flush()


def _shard(layer):
    return layer._get_layer()._shards[0]


async def _receive_all(layer, channel, count: int) -> list[int]:
    return [(await asyncio.wait_for(layer.receive(channel), 30))["n"] for _ in range(count)]


async def test_publishes_made_together_go_out_in_a_few_batches_in_order(redis_):
    async with _sender_and_receiver(redis_) as (sender, receiver, channel):
        await asyncio.gather(*(sender.group_send(GROUP, {"type": "dialogue.event", "n": n}) for n in range(300)))
        assert await _receive_all(receiver, channel, 300) == list(range(300))
        shard = _shard(sender)
        assert shard.publishes_sent == 300
        # The first goes out alone at once; the 299 made while it was in flight follow together.
        assert shard.batches_sent <= 3, shard.batches_sent


async def test_a_lone_publish_goes_out_at_once_each_time(redis_):
    async with _sender_and_receiver(redis_) as (sender, receiver, channel):
        for n in range(5):
            await sender.group_send(GROUP, {"type": "dialogue.event", "n": n})
            assert await _receive_all(receiver, channel, 1) == [n]
        assert _shard(sender).batches_sent == 5


async def test_a_caller_cancelled_while_waiting_leaves_its_batch_to_go_out(redis_):
    async with _sender_and_receiver(redis_) as (sender, receiver, channel):
        first = asyncio.ensure_future(sender.group_send(GROUP, {"type": "dialogue.event", "n": 0}))
        await asyncio.sleep(0)  # the first is in flight: the next ones wait in the outbox
        waiting = [
            asyncio.ensure_future(sender.group_send(GROUP, {"type": "dialogue.event", "n": n})) for n in (1, 2, 3)
        ]
        await asyncio.sleep(0)
        waiting[1].cancel()
        await first
        await asyncio.gather(waiting[0], waiting[2])
        # The cancelled caller's message went out with its batch: the layer delivers at most once, never out of order.
        assert await _receive_all(receiver, channel, 4) == [0, 1, 2, 3]


async def test_with_redis_down_every_waiting_publish_fails_and_the_layer_recovers(redis_):
    sender = _layer(redis_)
    try:
        await sender.group_send(GROUP, {"type": "dialogue.event", "n": -1})  # connected before Redis goes
        await asyncio.to_thread(redis_.stop)
        outcomes = await asyncio.gather(
            *(sender.group_send(GROUP, {"type": "dialogue.event", "n": n}) for n in range(20)),
            return_exceptions=True,
        )
        assert all(isinstance(outcome, redis.exceptions.ConnectionError) for outcome in outcomes), outcomes
        await asyncio.to_thread(redis_.start)
        receiver = _layer(redis_)
        try:
            channel = await _subscribed(receiver, redis_)
            await sender.group_send(GROUP, {"type": "dialogue.event", "n": 7})
            assert await _receive_all(receiver, channel, 1) == [7]
        finally:
            await receiver.flush()
    finally:
        await sender.flush()
