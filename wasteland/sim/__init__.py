"""Monte Carlo encounters: fight one encounter many times with agents on every side and
say how deadly it is (`wasteland simulate`, docs/simulate.md).

``spec`` says what is fought, ``fight`` fights it once on the engine directly (no env),
``runner`` spreads the fights over processes in seed order, ``tally`` and ``stats`` turn
the records into numbers, ``verdict`` turns the numbers into a word a GM reads.
"""
