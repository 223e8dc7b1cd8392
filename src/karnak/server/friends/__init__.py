"""Friends: an account asks another by name, the other accepts or declines, either removes.

Friends are what the invitation UI offers first (``GET /api/friends``), so that a game can
be sent to a person rather than a link. A request tells the requested account (notification
``friend_request``), an acceptance tells the requester (``friend_accepted``); a refusal tells
nobody. Every count is bounded: the requests one account has pending (``FriendLimits``), the
friends one account may have, the requests listed at once.
"""
