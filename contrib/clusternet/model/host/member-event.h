// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MEMBER_EVENT_H
#define CLUSTERNET_MEMBER_EVENT_H

#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/simulator.h"

#include <tuple>
#include <type_traits>
#include <utility>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * An event that calls a method of an object with its arguments, in one allocation.
 *
 * ns-3's MakeEvent binds the method and object into a std::function, which allocates a second
 * time (the bound call does not fit its small buffer); the models schedule several events per
 * packet. The object is held as @p Obj: a plain pointer, as Simulator::Schedule(&T::Method,
 * this) holds it (the object must outlive the event), or a Ptr that keeps it alive until the
 * event is done.
 */
template <typename Obj, typename T, typename... Params>
class MemberEvent : public EventImpl
{
  public:
    /// The method called.
    using Method = void (T::*)(Params...);

    /**
     * @param obj the object
     * @param method its method to call
     * @param args the method's arguments
     */
    template <typename... Args>
    MemberEvent(Obj obj, Method method, Args&&... args)
        : m_obj(std::move(obj)),
          m_method(method),
          m_args(std::forward<Args>(args)...)
    {
    }

  private:
    void Notify() override
    {
        T* obj = &*m_obj;
        std::apply([this, obj](auto&... args) { (obj->*m_method)(args...); }, m_args);
    }

    Obj m_obj;                                  //!< the object
    Method m_method;                           //!< its method
    std::tuple<std::decay_t<Params>...> m_args; //!< the method's arguments
};

/**
 * @ingroup clusternet
 * Schedule @p method of @p obj (a pointer or a Ptr) after @p delay, as Simulator::Schedule does (same order among
 * same-time events), with one allocation.
 * @return the event's id
 */
template <typename T, typename... Params, typename Obj, typename... Args>
EventId
ScheduleMember(Time delay, void (T::*method)(Params...), Obj obj, Args&&... args)
{
    return Simulator::Schedule(
        delay,
        Ptr<EventImpl>(
            new MemberEvent<Obj, T, Params...>(std::move(obj), method, std::forward<Args>(args)...),
            false));
}

/**
 * @ingroup clusternet
 * Schedule @p method of @p obj after @p delay in node context @p context, as
 * Simulator::ScheduleWithContext does, with one allocation.
 */
template <typename T, typename... Params, typename Obj, typename... Args>
void
ScheduleMemberWithContext(uint32_t context,
                          Time delay,
                          void (T::*method)(Params...),
                          Obj obj,
                          Args&&... args)
{
    Simulator::ScheduleWithContext(
        context,
        delay,
        new MemberEvent<Obj, T, Params...>(std::move(obj), method, std::forward<Args>(args)...));
}

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_MEMBER_EVENT_H
